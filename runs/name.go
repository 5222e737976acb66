package runs

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
)

// checkName is why name cannot be a run's given name, or nil. A name is typed after
// the verbs (corral kill NAME), printed to terminals and may be used as a file name,
// so it is none of: empty, "." or "..", one with a "/" or a control character (an
// escape sequence in it would reach every terminal that lists it), or one starting
// with "-" (it would read as an option). That it is not the start of another run's id
// is checked where the runs are known (Supervisor.newRun).
func checkName(name string) error {
	switch {
	case name == "":
		return errors.New("an empty name")
	case name == "." || name == "..":
		return fmt.Errorf("the name %q: a name cannot be . or ..", name)
	case strings.HasPrefix(name, "-"):
		return fmt.Errorf("the name %q: a name cannot start with - (it would read as an option)", Printable(name))
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return fmt.Errorf("a name with control characters (%s)", Printable(name))
	case strings.Contains(name, "/"):
		return fmt.Errorf("the name %q: a name cannot contain /", name)
	}
	return nil
}

// A run is named after the program it runs: `corral -- env FOO=1 claude` is "claude",
// not "env". These wrappers run their last arguments as the program; for each, the
// options that take a value in the next word (a value joined to its option, "-n5" or
// "--signal=KILL", takes no extra word) and how many positional words come before the
// program.
var wrappers = map[string]struct {
	valued []string
	before int
}{
	"env":        {valued: []string{"-u", "--unset", "-C", "--chdir", "-S", "--split-string"}},
	"nice":       {valued: []string{"-n", "--adjustment"}},
	"nohup":      {},
	"sudo":       {valued: []string{"-u", "--user", "-g", "--group", "-h", "--host", "-p", "--prompt", "-C", "--close-from", "-D", "--chdir", "-r", "--role", "-t", "--type", "-T", "--command-timeout", "-U", "--other-user"}},
	"doas":       {valued: []string{"-u", "-C"}},
	"timeout":    {valued: []string{"-s", "--signal", "-k", "--kill-after"}, before: 1},
	"stdbuf":     {valued: []string{"-i", "--input", "-o", "--output", "-e", "--error"}},
	"ionice":     {valued: []string{"-c", "--class", "-n", "--classdata", "-p", "--pid", "-P", "--pgid", "-u", "--uid"}},
	"setsid":     {},
	"time":       {valued: []string{"-f", "--format", "-o", "--output"}},
	"chrt":       {before: 1},
	"taskset":    {before: 1},
	"exec":       {valued: []string{"-a"}},
	"command":    {},
	"caffeinate": {valued: []string{"-t", "-w"}},
}

// programName is the name of the program argv runs, past any wrappers, their options
// and VAR=value words.
func programName(argv []string) string {
	for len(argv) > 0 && isAssignment(argv[0]) { // a shell line's FOO=1 cmd
		argv = argv[1:]
	}
	for len(argv) > 0 {
		w, ok := wrappers[filepath.Base(argv[0])]
		if !ok {
			break
		}
		rest := skipOptions(argv[1:], w.valued)
		if len(rest) <= w.before {
			break // a wrapper with nothing to run: it is the program
		}
		argv = rest[w.before:]
	}
	if len(argv) == 0 {
		return "run"
	}
	return filepath.Base(argv[0])
}

// skipOptions drops leading options (and the words valued options take), "--", and
// VAR=value assignments.
func skipOptions(args []string, valued []string) []string {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a == "--":
			return args[1:]
		case strings.HasPrefix(a, "-") && len(a) > 1:
			args = args[1:]
			if takesValue(a, valued) && len(args) > 0 {
				args = args[1:]
			}
		case isAssignment(a):
			args = args[1:]
		default:
			return args
		}
	}
	return args
}

func takesValue(opt string, valued []string) bool {
	for _, v := range valued {
		if opt == v {
			return true
		}
	}
	return false
}

// isAssignment reports whether word is NAME=value.
func isAssignment(word string) bool {
	name, _, ok := strings.Cut(word, "=")
	return ok && name != "" && !strings.ContainsAny(name, "/-")
}
