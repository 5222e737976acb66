package agentstate

import (
	"regexp"
	"slices"
	"strings"
)

// Session is how an agent CLI names and resumes a conversation (a rule file's
// [session] table), so that a run can be started again after a reboot with the
// conversation it had. It is data: a CLI that changes its options needs a rule edit.
//
//	[session]
//	pin    = ["--session-id", "{id}"]     # words that pin a new id at launch (none: it is learnt)
//	given  = ["--session-id", "--resume"] # options whose value already names the id
//	no_pin = ["--continue"]               # options under which no id is pinned (it is learnt)
//	id     = '^[0-9a-f-]{36}$'            # what an id looks like (a given value that is not one is no id)
//	resume = ["--resume", "{id}"]         # words that resume id, put right after the program
//	drop   = ["--session-id=", "-c"]      # options dropped on resume ("=": it takes a value)
//	valued = ["--model"]                  # its other options that take a value
//	prompt = true                         # words after the program that are no option are a prompt: dropped on resume
//	hook   = ["session_id"]               # the hook payload's keys that name the id
//	files  = "codex"                      # the session files the id is learnt from (a known layout)
type Session struct {
	Pin    []string
	Given  []string
	NoPin  []string
	ID     *regexp.Regexp
	Resume []string
	Drop   []string
	Valued []string
	Prompt bool
	Hook   []string
	Files  string
	Line   int // of its [session] table
}

// idWord stands for the id in pin and resume.
const idWord = "{id}"

// Program is the index in argv of the word that runs the agent (its program, or
// npx's package, or node's script), -1 when it is found nowhere: a command line the
// resume words cannot be put into.
func (a *Agent) Program(argv []string) int {
	for i, w := range argv {
		base := w
		if j := strings.LastIndexAny(w, `/\`); j >= 0 {
			base = w[j+1:]
		}
		if slices.Contains(a.Commands, base) || slices.Contains(a.Packages, packageName(w)) {
			return i
		}
		if _, pkg := scriptPackage(w); pkg != "" && slices.Contains(a.Packages, pkg) {
			return i
		}
	}
	return -1
}

// Launch is argv as it starts a new conversation whose id is known: the id argv
// already names (a given option's value), or a new one pinned by the pin words
// (newID makes it). It returns argv unchanged and "" when the id cannot be known at
// launch: no pin words, a no_pin option, or no program in argv.
func (s *Session) Launch(a *Agent, argv []string, newID func() string) ([]string, string) {
	if s == nil {
		return argv, ""
	}
	at := a.Program(argv)
	if at < 0 {
		return argv, ""
	}
	args := argv[at+1:]
	for i, w := range args {
		name, val, eq := strings.Cut(w, "=")
		if slices.Contains(s.NoPin, name) {
			return argv, ""
		}
		if !slices.Contains(s.Given, name) {
			continue
		}
		if !eq {
			if i+1 >= len(args) {
				return argv, ""
			}
			val = args[i+1]
		}
		if s.ID != nil && !s.ID.MatchString(val) {
			return argv, "" // --resume latest, --resume 3: which one is learnt
		}
		return argv, val
	}
	if len(s.Pin) == 0 {
		return argv, ""
	}
	id := newID()
	out := slices.Clone(argv[:at+1])
	out = append(out, fill(s.Pin, id)...)
	return append(out, args...), id
}

// ResumeArgv is argv made to resume conversation id: the drop options (and their
// values) and, when prompt is set, an initial prompt taken out, and the resume words
// put right after the program. ok is false when argv has no program to put them after.
func (s *Session) ResumeArgv(a *Agent, argv []string, id string) (out []string, ok bool) {
	if s == nil || len(s.Resume) == 0 {
		return nil, false
	}
	at := a.Program(argv)
	if at < 0 {
		return nil, false
	}
	out = slices.Clone(argv[:at+1])
	out = append(out, fill(s.Resume, id)...)
	args := argv[at+1:]
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w == "--" { // what follows is positional: a prompt
			if !s.Prompt {
				out = append(out, args[i:]...)
			}
			break
		}
		name, _, eq := strings.Cut(w, "=")
		switch {
		case slices.Contains(s.Drop, name+"="):
			if !eq && takesNext(args, i) {
				i++ // its value
			}
		case slices.Contains(s.Drop, name):
		case strings.HasPrefix(w, "-"):
			out = append(out, w)
			if !eq && slices.Contains(s.Valued, name) && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
		case s.Prompt:
		default:
			out = append(out, w)
		}
	}
	return out, true
}

// FreshArgv is argv started as a new conversation: the options that name or pick a
// conversation (drop) taken out, the rest (an initial prompt too) as it was.
func (s *Session) FreshArgv(a *Agent, argv []string) []string {
	if s == nil {
		return argv
	}
	at := a.Program(argv)
	if at < 0 {
		return argv
	}
	out := slices.Clone(argv[:at+1])
	args := argv[at+1:]
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w == "--" {
			return append(out, args[i:]...)
		}
		name, _, eq := strings.Cut(w, "=")
		switch {
		case slices.Contains(s.Drop, name+"="):
			if !eq && takesNext(args, i) {
				i++
			}
		case slices.Contains(s.Drop, name):
		default:
			out = append(out, w)
		}
	}
	return out
}

// HookID is the conversation id a hook's payload fields name (HookReport.IDs), "" if
// none of the session's hook keys is there.
func (s *Session) HookID(ids map[string]string) string {
	if s == nil {
		return ""
	}
	for _, k := range s.Hook {
		if v := ids[k]; v != "" && (s.ID == nil || s.ID.MatchString(v)) {
			return v
		}
	}
	return ""
}

// takesNext reports whether the dropped option args[i] has its value in the next word:
// there is one and it is no option (claude's --resume and -r may go without one, and
// open a picker; the option after them is not their value).
func takesNext(args []string, i int) bool {
	return i+1 < len(args) && !strings.HasPrefix(args[i+1], "-")
}

func fill(words []string, id string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = strings.ReplaceAll(w, idWord, id)
	}
	return out
}
