package agentstate

import (
	"slices"
	"strings"
)

// Mode is a mode in which the agent will not ask before it acts (Claude Code's auto
// mode, codex with approvals off, Gemini's YOLO): a run in it never shows waiting for
// a permission, and a user must see that "no question" is not "nothing to do". It is
// known from the command's flags, and from the screen where the agent shows it.
type Mode struct {
	Name string
	// Flags are the argument words that start the agent in the mode: each entry one
	// word ("--yolo") or a word and its value ("--permission-mode auto"; the form
	// "--permission-mode=auto" matches it too).
	Flags [][]string
	// When are the clauses that say so on the screen (its footer); none when the
	// agent does not show it.
	When []Clause
	Line int
}

// ModeMark is how a run's list row marks its agent's mode after the state: " (auto)",
// "" for none. The details pane says what it means (ModeMeaning).
func ModeMark(mode string) string {
	if mode == "" {
		return ""
	}
	return " (" + mode + ")"
}

// ModeMeaning is the mode as the details pane says it: "auto mode: will not ask
// before it acts".
func ModeMeaning(mode string) string {
	return mode + " mode: will not ask before it acts"
}

// FlagMode is the mode the command line argv starts the agent in, "" when none.
func (a *Agent) FlagMode(argv []string) string {
	for _, m := range a.Modes {
		for _, f := range m.Flags {
			if hasFlag(argv, f) {
				return m.Name
			}
		}
	}
	return ""
}

// hasFlag says whether argv holds the words of f in a row, or f's two words as one
// "NAME=VALUE".
func hasFlag(argv, f []string) bool {
	for i := range argv {
		if len(f) == 1 && argv[i] == f[0] {
			return true
		}
		if len(f) == 2 && (argv[i] == f[0] && i+1 < len(argv) && argv[i+1] == f[1] || argv[i] == f[0]+"="+f[1]) {
			return true
		}
	}
	return false
}

// showsModes says whether the agent shows on its screen any mode it will not ask in.
func (a *Agent) showsModes() bool {
	return slices.ContainsFunc(a.Modes, func(m Mode) bool { return len(m.When) > 0 })
}

// screenMode is the mode the screen shows, "" when it shows none.
func (a *Agent) screenMode(rd *reading) string {
	for _, m := range a.Modes {
		if len(m.When) == 0 {
			continue
		}
		if !slices.ContainsFunc(m.When, func(c Clause) bool { ok, _ := c.check(rd); return !ok }) {
			return m.Name
		}
	}
	return ""
}

// nextMode is the mode after a judgment of state s whose screen showed shown: the
// screen's word when it shows a mode; at the prompt (where the agents show their
// mode) a screen that shows none ends the mode it would show; otherwise (a question, a
// mode only flags tell) the mode stays.
func (a *Agent) nextMode(cur string, s State, shown string) string {
	switch {
	case shown != "":
		return shown
	case s == Idle && a.showsModes() && a.modeShown(cur):
		return ""
	}
	return cur
}

// modeShown says whether the mode named name is one the screen shows.
func (a *Agent) modeShown(name string) bool {
	i := slices.IndexFunc(a.Modes, func(m Mode) bool { return m.Name == name })
	return i >= 0 && len(a.Modes[i].When) > 0
}

// modeFlags splits each flag entry of a rule file into its words.
func modeFlags(entries []string) [][]string {
	var out [][]string
	for _, e := range entries {
		if f := strings.Fields(e); len(f) > 0 {
			out = append(out, f)
		}
	}
	return out
}
