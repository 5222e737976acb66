package agentstate

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

//go:embed rules/*.toml
var builtinFS embed.FS

// Set is the agents Corral knows: the built-in rule files and a user's.
type Set struct {
	agents []*Agent // in recognition order: a user's first, then the built-ins
}

// Builtin returns the built-in agents. Their files are tested; one that does not
// parse is a bug found by every test run, so it panics.
func Builtin() *Set {
	s := &Set{}
	entries, _ := fs.ReadDir(builtinFS, "rules")
	for _, e := range entries {
		data, _ := builtinFS.ReadFile("rules/" + e.Name())
		a, err := ParseRules("builtin:"+e.Name(), data)
		if err != nil {
			panic(fmt.Sprintf("agentstate: built-in rules: %v", err))
		}
		s.agents = append(s.agents, a)
	}
	return s
}

// NewSet is a set of exactly these agents, tried in this order (tests, and a demo's
// own agent).
func NewSet(agents ...*Agent) *Set { return &Set{agents: agents} }

// With returns the set with a added, tried first (it replaces an agent of its name).
func (s *Set) With(a *Agent) *Set {
	out := &Set{agents: slices.DeleteFunc(slices.Clone(s.agents), func(b *Agent) bool { return b.Name == a.Name })}
	out.agents = slices.Insert(out.agents, 0, a)
	return out
}

// UserDir is where a user's rule files live: <user config dir>/corral/agents.
func UserDir() string {
	dir, err := os.UserConfigDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "corral", "agents")
}

// Load returns the built-in agents with the rule files (*.toml) of dir: a file for an
// agent already known replaces its rules, any other adds an agent, tried before the
// built-ins. A file with a mistake is skipped and its error (file and line) returned
// among errs; nothing here is fatal. A missing dir is no error.
func Load(dir string) (s *Set, errs []error) {
	s = Builtin()
	if dir == "" {
		return s, nil
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "*.toml"))
	sort.Strings(paths)
	var user []*Agent
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err == nil {
			var a *Agent
			if a, err = ParseRules(p, data); err == nil {
				user = append(user, a)
				continue
			}
		}
		if !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, fmt.Errorf("agent rules skipped: %w", err))
		}
	}
	for _, a := range slices.Backward(user) {
		s.agents = slices.DeleteFunc(s.agents, func(b *Agent) bool { return b.Name == a.Name })
		s.agents = slices.Insert(s.agents, 0, a)
	}
	return s, errs
}

// Agents lists the agents in recognition order.
func (s *Set) Agents() []*Agent { return slices.Clone(s.agents) }

// Named returns the agent with that id, or nil.
func (s *Set) Named(name string) *Agent {
	for _, a := range s.agents {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// Names lists the agents' ids, sorted.
func (s *Set) Names() []string {
	var out []string
	for _, a := range s.agents {
		out = append(out, a.Name)
	}
	sort.Strings(out)
	return out
}

// Recognize returns the agent a command runs, looking through wrappers (env, npx,
// node …/cli.js, sudo, sh -c …), or nil. A run is either argv or a shell line.
func (s *Set) Recognize(argv []string, shell string) *Agent {
	a, _ := s.RecognizeHow(argv, shell)
	return a
}

// RecognizeHow is Recognize, with what it saw: the program it found and, when that is
// not the command's first word, the wrapper in front: "env … → claude", "node … →
// @openai/codex". Empty with no agent.
func (s *Set) RecognizeHow(argv []string, shell string) (*Agent, string) {
	if shell != "" {
		argv = shellWords(shell)
	}
	prog, pkg := unwrap(argv)
	for _, a := range s.agents {
		if slices.Contains(a.Commands, prog) || pkg != "" && slices.Contains(a.Packages, pkg) {
			what := prog
			if !slices.Contains(a.Commands, prog) {
				what = pkg
			}
			if first := filepath.Base(argv[0]); first != what {
				what = first + " … → " + what
			}
			return a, what
		}
	}
	return nil, ""
}

// RecognizeFile returns the agent an executable file is, by its name or the npm
// package it lies in (…/node_modules/@anthropic-ai/claude-code/bin/claude.exe), with
// what it saw; nil and "" for none. For a process whose argv says nothing (its argv[0]
// another name, a rewritten cmdline): its /proc/PID/exe.
func (s *Set) RecognizeFile(path string) (*Agent, string) {
	prog, pkg := scriptPackage(path)
	for _, a := range s.agents {
		if pkg != "" && slices.Contains(a.Packages, pkg) {
			return a, pkg
		}
		if prog != "" && slices.Contains(a.Commands, prog) {
			return a, prog
		}
	}
	return nil, ""
}

// shellWords splits a simple shell line into words (quotes kept together); enough to
// find the program of "FOO=1 exec claude --resume".
func shellWords(line string) []string {
	var words []string
	var cur strings.Builder
	quote := rune(0)
	in := false
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t' || r == '\n':
			if in {
				words, in = append(words, cur.String()), false
				cur.Reset()
			}
		case r == ';' || r == '|' || r == '&':
			if in {
				words = append(words, cur.String())
			}
			return words // the first command decides
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}
