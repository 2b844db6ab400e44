package main

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/schedsim/schedsim/sim/run"
)

// pflagUnknownFlag is pflag's wording of a flag it does not know.
var pflagUnknownFlag = regexp.MustCompile(`^unknown (?:shorthand )?flag: '?(--?[\w-]+)'?`)

// suggestFlag adds the nearest flag of c to an unknown flag's error, as
// config keys get one: "unknown flag: --backfil (did you mean --backfill?)".
func suggestFlag(c *cobra.Command, err error) error {
	m := pflagUnknownFlag.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	name := strings.TrimLeft(m[1], "-")
	name, _, _ = strings.Cut(name, "=")
	var names []string
	c.Flags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if near := run.NearestName(name, names); near != "" {
		return fmt.Errorf("%w (did you mean --%s?)", err, near)
	}
	return err
}

// pflagValueError is pflag's wording of a flag value its parser refused.
var pflagValueError = regexp.MustCompile(`^invalid argument "(.*)" for "(?:-\w, )?(--[\w-]+)" flag: (.*)$`)

// plainFlagError words a refused flag value without the Go parser's text:
// `--mtbf: want a number, got "often"`.
func plainFlagError(err error) error {
	m := pflagValueError.FindStringSubmatch(err.Error())
	if m == nil {
		return err
	}
	value, flag, why := m[1], m[2], m[3]
	var want string
	switch {
	case strings.Contains(why, "ParseFloat"):
		want = "a number"
	case strings.Contains(why, "ParseUint"):
		want = "a whole number ≥ 0"
	case strings.Contains(why, "ParseInt"):
		want = "a whole number"
	case strings.Contains(why, "ParseBool"):
		want = "true or false"
	case strings.Contains(why, "time: "):
		want = "a duration such as 90s, 15m or 2h"
	default:
		return errors.New(flag + ": " + why)
	}
	if strings.Contains(why, "value out of range") {
		return fmt.Errorf("%s: %q is out of range for %s", flag, value, want)
	}
	return fmt.Errorf("%s: want %s, got %q", flag, want, value)
}
