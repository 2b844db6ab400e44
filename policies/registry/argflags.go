package registry

import (
	"strconv"

	"github.com/spf13/pflag"
)

// argFlag is a flag that sets one field of a policy's arguments, found
// when the flag is read or set (the spec's block is copied on write).
type argFlag struct {
	typ string
	get func() string
	set func(string) error
}

func (f *argFlag) String() string     { return f.get() }
func (f *argFlag) Set(v string) error { return f.set(v) }
func (f *argFlag) Type() string       { return f.typ }

// stringArg is a string flag over the field field returns.
func stringArg(field func() *string) pflag.Value {
	return &argFlag{typ: "string",
		get: func() string { return *field() },
		set: func(v string) error { *field() = v; return nil }}
}

// floatArg is a float64 flag over the field field returns, read and
// written as pflag's Float64Var does.
func floatArg(field func() *float64) pflag.Value {
	return &argFlag{typ: "float64",
		get: func() string { return strconv.FormatFloat(*field(), 'g', -1, 64) },
		set: func(v string) error {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return err
			}
			*field() = x
			return nil
		}}
}
