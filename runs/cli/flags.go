package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
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

// FlagsAfterCommand are the flags of fs that args, parsed by fs into rest (the
// command and its arguments), hold after the command: `corral spawn sleep 100 --name
// t2` runs `sleep 100 --name t2`, since parsing stops at the first word that is not a
// flag, and the user probably meant --name for Corral. Only --NAME forms of fs's own
// flags count (`find . -name x` is common and means find's); none when the command
// came after `--`, which says every word after it is the command's.
func FlagsAfterCommand(fs *flag.FlagSet, args, rest []string) []string {
	n := len(args) - len(rest)
	if len(rest) < 2 || (n > 0 && args[n-1] == "--") {
		return nil
	}
	var found []string
	for _, w := range rest[1:] {
		if w == "--" {
			break // the command's own end of options: what follows is its arguments
		}
		name, ok := strings.CutPrefix(w, "--")
		name, _, _ = strings.Cut(name, "=")
		if ok && name != "" && fs.Lookup(name) != nil && !slices.Contains(found, "--"+name) {
			found = append(found, "--"+name)
		}
	}
	return found
}
