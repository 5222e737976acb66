// Package cli is corral's command line: the one table every command is declared in
// (Command, Table: its line in corral --help, its own --help, its did-you-mean), and
// the one way every command parses its flags (ParseFlags). The packages below it are
// the commands' bodies: control (the verbs that drive the state dir's server, and
// ls, check, up/down/graph), doctor, listing (what ls and reconcile print), parity
// and foreground (corral run). The process entry, main.go, holds the table.
package cli

import (
	"flag"
	"fmt"
	"strings"

	"corral/config"
)

// Part is where corral --help lists a command.
type Part int

const (
	// Own are corral's own commands: the UI, run, ls, server …
	Own Part = iota
	// Verb are the verbs that drive the state dir's server, for scripts and agents.
	Verb
	// Last are listed after the verbs (version).
	Last
	// Unlisted are not listed (help, which corral --help is).
	Unlisted
)

// Command is one of corral's commands: its line in corral --help and the head of its
// own --help, and what it does. Run with --help prints the command's help (Help) to
// stdout and returns 0.
type Command struct {
	Name     string
	Synopsis string // what follows the name: "[--json] [--all]"
	Summary  string // what it does; a newline goes on under the first line
	Part     Part
	Run      func(args []string) int
}

// Help is the command's --help (and corral help NAME): its synopsis, what it does,
// and its flags (fs; nil: it has none).
func (c Command) Help(fs *flag.FlagSet) string {
	var b strings.Builder
	fmt.Fprintf(&b, "usage: corral %s %s\n  %s\n", c.Name, c.Synopsis, strings.ReplaceAll(c.Summary, "\n", "\n  "))
	if fs != nil {
		b.WriteString("\nflags:\n")
		fs.SetOutput(&b)
		fs.PrintDefaults()
	}
	return b.String()
}

// line is the command's line in corral --help.
func (c Command) line() string {
	return fmt.Sprintf("  %-30s %s\n", c.Name+" "+c.Synopsis, strings.ReplaceAll(c.Summary, "\n", "\n"+strings.Repeat(" ", 33)))
}

// Table is every command, each declared once. Its order is corral --help's within
// each Part, and did-you-mean's among equally close names (the earlier wins).
type Table []Command

// Find is the command called name.
func (t Table) Find(name string) (Command, bool) {
	for _, c := range t {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}

// Lines are the lines of corral --help of the commands of part p, in table order.
func (t Table) Lines(p Part) string {
	var b strings.Builder
	for _, c := range t {
		if c.Part == p {
			b.WriteString(c.line())
		}
	}
	return b.String()
}

// Unknown says that name is no command, with the one it was probably meant to be.
func (t Table) Unknown(name string) string {
	names := make([]string, len(t))
	for i, c := range t {
		names[i] = c.Name
	}
	if s := config.Closest(name, names); s != "" {
		return fmt.Sprintf("unknown command %q (did you mean %s?); corral --help lists them", name, s)
	}
	return fmt.Sprintf("unknown command %q; corral --help lists them", name)
}
