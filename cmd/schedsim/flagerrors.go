package main

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

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
