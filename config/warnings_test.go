package config

import (
	"strings"
	"testing"
)

// A missing cwd and a program not on PATH are warned of, each naming its run's line;
// a program on PATH, a path, a shell builtin and an assignment are not.
func TestRunWarnings(t *testing.T) {
	dir := t.TempDir()
	f := &File{Path: "corral.toml", Runs: []RunEntry{
		{Line: 1, Name: "ok", Argv: []string{"sh"}, Cwd: dir},
		{Line: 5, Name: "gone", Argv: []string{"sh"}, Cwd: dir + "/missing"},
		{Line: 9, Name: "nowhere", Cmd: "no-such-program-here --flag"},
		{Line: 13, Name: "builtin", Cmd: "cd /tmp && make"},
		{Line: 17, Name: "assign", Cmd: "FOO=1 no-such-program-here"},
		{Line: 21, Name: "path", Argv: []string{"./no-such-program-here"}},
	}}
	got := f.RunWarnings()
	want := []string{
		`corral.toml:5: run "gone": cwd ` + dir + `/missing is not a directory here`,
		`corral.toml:9: run "nowhere": no-such-program-here is not on PATH here`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
