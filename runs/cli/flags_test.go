package cli

import (
	"errors"
	"flag"
	"slices"
	"testing"
	"time"
)

func TestParseFlagsSaysWhatIsWrong(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--wiat", "1s"}, "unknown flag --wiat (did you mean --wait?)"},
		{[]string{"-zzz"}, "unknown flag --zzz"},
		{[]string{"--wait", "3"}, "--wait 3: a duration needs a unit: 3s, 3m or 3h"},
		{[]string{"--wait", "soon"}, "--wait soon: not a duration (30s, 5m, 1h30m)"},
		{[]string{"--limit", "3s"}, "--limit 3s: parse error"}, // an int is not a duration
		{[]string{"--wait"}, "--wait needs a value"},
		{[]string{"--json=maybe"}, "--json maybe: parse error"},
	}
	for _, c := range cases {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.Duration("wait", 0, "")
		fs.Int("limit", 0, "")
		fs.Bool("json", false, "")
		if err := ParseFlags(fs, c.args); err == nil || err.Error() != c.want {
			t.Errorf("%q: %v, want %q", c.args, err, c.want)
		}
	}
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	wait := fs.Duration("wait", 0, "")
	if err := ParseFlags(fs, []string{"--wait", "2s", "ID"}); err != nil || *wait != 2*time.Second || fs.Arg(0) != "ID" {
		t.Errorf("good flags: %v %v %q", err, *wait, fs.Args())
	}
	if err := ParseFlags(fs, []string{"--help"}); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("--help: %v", err)
	}
}

// A Corral flag after the command (where parsing has stopped, so the command gets it)
// is found, in its --NAME and --NAME=V forms, once each; not after --, not in the
// command's own arguments after its --, not a single-dash word (find's -name), not a
// flag Corral does not have.
func TestFlagsAfterCommand(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
	}{
		{[]string{"sleep", "100", "--name", "t2"}, []string{"--name"}},
		{[]string{"--pty", "sleep", "100", "--name=t2", "--pty", "--name", "x"}, []string{"--name", "--pty"}},
		{[]string{"--", "sleep", "100", "--name", "t2"}, nil},
		{[]string{"--name", "a", "--", "git", "log", "--name"}, nil},
		{[]string{"git", "log", "--", "--name"}, nil},
		{[]string{"find", ".", "-name", "x.go"}, nil},
		{[]string{"ls", "--color", "--all"}, nil},
		{[]string{"--name"}, nil}, // a mistake, said by ParseFlags
		{[]string{"sleep"}, nil},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.String("name", "", "")
		fs.Bool("pty", false, "")
		ParseFlags(fs, c.args)
		if got := FlagsAfterCommand(fs, c.args, fs.Args()); !slices.Equal(got, c.want) {
			t.Errorf("%q: %q, want %q", c.args, got, c.want)
		}
	}
}
