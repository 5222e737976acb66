package control

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"time"

	"corral/config"
)

// ParseFlags parses args into fs the one way every corral command does: nothing is
// printed, -h/--help gives flag.ErrHelp, and a mistake is one line that names the
// flag, with the flag it was probably meant to be or, for a duration without a unit,
// the unit it needs.
func ParseFlags(fs *flag.FlagSet, args []string) error {
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return flagMistake(fs, err)
}

// The flag package's messages, which name the flag and the value.
var (
	undefinedFlag = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	invalidValue  = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-+([^:]*): (.*)$`)
	missingValue  = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
)

// flagMistake rewrites one of the flag package's errors for a person.
func flagMistake(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	if m := undefinedFlag.FindStringSubmatch(msg); m != nil {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		if s := config.Closest(m[1], names); s != "" {
			return fmt.Errorf("unknown flag --%s (did you mean --%s?)", m[1], s)
		}
		return fmt.Errorf("unknown flag --%s", m[1])
	}
	if m := missingValue.FindStringSubmatch(msg); m != nil {
		return fmt.Errorf("--%s needs a value", m[1])
	}
	if m := invalidValue.FindStringSubmatch(msg); m != nil {
		if f := fs.Lookup(m[2]); f != nil && isDuration(f) {
			if _, unitless := time.ParseDuration(m[1] + "s"); unitless == nil {
				return fmt.Errorf("--%s %s: a duration needs a unit: %ss, %sm or %sh", m[2], m[1], m[1], m[1], m[1])
			}
			return fmt.Errorf("--%s %s: not a duration (30s, 5m, 1h30m)", m[2], m[1])
		}
		return fmt.Errorf("--%s %s: %s", m[2], m[1], m[3])
	}
	return err
}

// isDuration reports whether f takes a duration (its value's Get says so).
func isDuration(f *flag.Flag) bool {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	_, ok = g.Get().(time.Duration)
	return ok
}
