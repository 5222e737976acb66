package runs

import "testing"

func TestRunNamedAfterTheProgram(t *testing.T) {
	cases := map[string]Spec{
		"claude":  {Argv: []string{"env", "FOO=1", "claude"}},
		"codex":   {Argv: []string{"/usr/bin/env", "-u", "TMUX", "-i", "A=b", "codex", "--yolo"}},
		"make":    {Argv: []string{"nice", "-n", "5", "make", "-j8"}},
		"go":      {Argv: []string{"nice", "-n5", "nohup", "go", "test"}},
		"npm":     {Argv: []string{"timeout", "-s", "KILL", "10m", "npm", "test"}},
		"pytest":  {Argv: []string{"timeout", "--kill-after=5s", "1h", "stdbuf", "-oL", "pytest"}},
		"server":  {Argv: []string{"sudo", "-u", "www", "-E", "./bin/server"}},
		"sleep":   {Argv: []string{"env", "--", "sleep", "1"}},
		"env":     {Argv: []string{"env"}},
		"timeout": {Argv: []string{"timeout", "5"}},
		"cargo":   {Shell: "env RUST_LOG=debug cargo run"},
		"ls":      {Shell: "ls -la"},
		"x":       {Name: "x", Argv: []string{"env", "claude"}},
		"run":     {Shell: "A=1"},
	}
	for want, spec := range cases {
		if got := spec.DisplayName(); got != want {
			t.Errorf("%+v named %q, want %q", spec, got, want)
		}
	}
}
