package cli

import (
	"flag"
	"strings"
	"testing"
)

func TestTableLinesHelpAndUnknown(t *testing.T) {
	run := func([]string) int { return 0 }
	table := Table{
		{Name: "up", Synopsis: "[--wait]", Summary: "start them\nall", Run: run},
		{Name: "ap", Summary: "a verb", Part: Verb, Run: run},
		{Name: "help", Part: Unlisted, Run: run},
	}
	if got, want := table.Lines(Own), "  up [--wait]"+strings.Repeat(" ", 19)+" start them\n"+strings.Repeat(" ", 33)+"all\n"; got != want {
		t.Errorf("Lines(Own) = %q, want %q", got, want)
	}
	if got := table.Lines(Verb); got != "  ap"+strings.Repeat(" ", 28)+" a verb\n" {
		t.Errorf("Lines(Verb) = %q", got)
	}
	if got := table.Lines(Own) + table.Lines(Verb) + table.Lines(Last); strings.Contains(got, "help") {
		t.Errorf("help is listed: %q", got)
	}
	fs := flag.NewFlagSet("up", flag.ContinueOnError)
	fs.Bool("wait", false, "wait")
	c, ok := table.Find("up")
	if want := "usage: corral up [--wait]\n  start them\n  all\n\nflags:\n  -wait\n    \twait\n"; !ok || c.Help(fs) != want {
		t.Errorf("Help = %q, want %q", c.Help(fs), want)
	}
	if _, ok := table.Find("down"); ok {
		t.Error("Find found a command the table has not")
	}
	// xp is one edit from up and from ap: the earlier in the table is named.
	if got, want := table.Unknown("xp"), `unknown command "xp" (did you mean up?); corral --help lists them`; got != want {
		t.Errorf("Unknown = %q, want %q", got, want)
	}
	if got, want := table.Unknown("zzzzzz"), `unknown command "zzzzzz"; corral --help lists them`; got != want {
		t.Errorf("Unknown = %q, want %q", got, want)
	}
}
