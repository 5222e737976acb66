package config

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// RunWarnings are what may fail only when a run starts, said before (corral check):
// a cwd that does not exist, a program not on PATH. Nothing is run to
// find out.
func (f *File) RunWarnings() []string {
	var out []string
	for _, e := range f.Runs {
		at := fmt.Sprintf("%s:%d: run %q", f.Path, e.Line, e.Name)
		if e.Cwd != "" {
			if st, err := os.Stat(e.Cwd); err != nil || !st.IsDir() {
				out = append(out, fmt.Sprintf("%s: cwd %s is not a directory here", at, e.Cwd))
			}
		}
		prog := programOf(e)
		if prog == "" || strings.Contains(prog, "/") {
			continue
		}
		if _, err := exec.LookPath(prog); err != nil && !shellWord(prog) {
			out = append(out, fmt.Sprintf("%s: %s is not on PATH here", at, prog))
		}
	}
	return out
}

// programOf is the program a run starts: argv's first, or a shell line's first word
// (builtins and assignments may fool it; "" for an assignment).
func programOf(e RunEntry) string {
	if len(e.Argv) > 0 {
		return e.Argv[0]
	}
	if w := strings.Fields(e.Cmd); len(w) > 0 && !strings.Contains(w[0], "=") {
		return w[0]
	}
	return ""
}

// shellWord reports a word a shell line may start with that is no program.
func shellWord(w string) bool {
	switch w {
	case "cd", "exec", "export", "set", "source", ".", "if", "for", "while", "test", "[", "{", "(", "true", "false", "echo", "printf", "read", "ulimit", "umask", "trap", "wait":
		return true
	}
	return false
}
