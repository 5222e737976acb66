package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// fullExample uses every key corral.toml knows.
const fullExample = `# A team's corral.toml
[defaults]
grace = "10s"
timeout = "2h"
no_output_timeout = "15m"
output_cap = 500_000
transcript_cap = 0x100000
scrollback_lines = 5000
finished_ttl = "1h"
reconcile_policy = "adopt"
escape_policy = "warn"
state_dir = "/var/tmp/corral"

[keys]
cancel = ["x", "ctrl+k"]
focus = "enter"
quit = []

[[run]]
name = "agent"
cmd = "claude --resume"
pty = true
cwd = "/srv/app"
env = { EDITOR = "vi", EMPTY = "" }
timeout = "1h30m"
no_output_timeout = "0"
grace = "2s"
stop_signal = "SIGINT"
escape_policy = "fail"
autostart = false
cols = 200
rows = 50

[[run]]
name = "tests"
argv = ["go", "test",
        "-run", "A B", "./..."]
cwd = "sub"
env.CGO_ENABLED = "0"

[[run]]
name = "web"
cmd = 'rails s -b 0.0.0.0:3000'
[run.env]
GOFLAGS = "-race"
"WITH SPACE" = 'lit\eral'

[[host]]
name = "gpu"
ssh = "me@gpu.lan"

[[host]]
name = "box"
ssh = "box"
corral = "~/bin/corral"
state_dir = "/data/corral"
`

func wantFull(dir string) *File {
	return &File{
		Path: "corral.toml",
		Defaults: FileDefaults{
			Grace: 10 * time.Second, Timeout: 2 * time.Hour, NoOutputTimeout: 15 * time.Minute,
			OutputCap: 500_000, TranscriptCap: 1 << 20, ScrollbackLines: 5000, FinishedTTL: time.Hour,
			ReconcilePolicy: "adopt", EscapePolicy: "warn", StateDir: "/var/tmp/corral",
			Set: map[string]bool{
				"grace": true, "timeout": true, "no_output_timeout": true, "output_cap": true,
				"transcript_cap": true, "scrollback_lines": true, "finished_ttl": true, "reconcile_policy": true,
				"escape_policy": true, "state_dir": true,
			},
		},
		Keys:     map[string][]string{"cancel": {"x", "ctrl+k"}, "focus": {"enter"}, "quit": {}},
		KeyLines: map[string]int{"cancel": 15, "focus": 16, "quit": 17},
		Runs: []RunEntry{
			{
				Line: 19, Name: "agent", Cmd: "claude --resume", PTY: true, Cwd: "/srv/app",
				Env:     map[string]string{"EDITOR": "vi", "EMPTY": ""},
				Timeout: 90 * time.Minute, TimeoutSet: true, NoOutputSet: true,
				Grace: 2 * time.Second, StopSignal: "SIGINT", StopSignalLine: 28, EscapePolicy: "fail",
				Cols: 200, Rows: 50,
			},
			{
				Line: 34, Name: "tests", Argv: []string{"go", "test", "-run", "A B", "./..."},
				Cwd: filepath.Join(dir, "sub"), Env: map[string]string{"CGO_ENABLED": "0"}, Autostart: true,
			},
			{
				Line: 41, Name: "web", Cmd: "rails s -b 0.0.0.0:3000", Autostart: true,
				Env: map[string]string{"GOFLAGS": "-race", "WITH SPACE": `lit\eral`},
			},
		},
		Hosts: []HostEntry{
			{Line: 48, Name: "gpu", SSH: "me@gpu.lan"},
			{Line: 52, Name: "box", SSH: "box", Corral: "~/bin/corral", StateDir: "/data/corral"},
		},
	}
}

func TestParseGood(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		doc  string
		want *File
	}{
		{"full example", fullExample, wantFull(wd)},
		{"empty file", "# nothing yet\n", &File{Path: "corral.toml"}},
		{"argv form", "[[run]]\nname = \"ls\"\nargv = ['ls', '-l']\n", &File{Path: "corral.toml",
			Runs: []RunEntry{{Line: 1, Name: "ls", Argv: []string{"ls", "-l"}, Autostart: true}}}},
		{"explicit timeouts of 0", "[[run]]\nname = \"a\"\ncmd = \"x\"\ntimeout = \"0\"\nno_output_timeout = \"0s\"\n",
			&File{Path: "corral.toml", Runs: []RunEntry{{Line: 1, Name: "a", Cmd: "x", Autostart: true,
				TimeoutSet: true, NoOutputSet: true}}}},
		{"stop signal by number", "[[run]]\nname = \"a\"\ncmd = \"x\"\nstop_signal = \"15\"\n",
			&File{Path: "corral.toml", Runs: []RunEntry{{Line: 1, Name: "a", Cmd: "x", Autostart: true, StopSignal: "15", StopSignalLine: 4}}}},
		{"CRLF line ends", "[[run]]\r\nname = \"a\"\r\ncmd = \"x\"\r\n", &File{Path: "corral.toml",
			Runs: []RunEntry{{Line: 1, Name: "a", Cmd: "x", Autostart: true}}}},
		{"an agent and [notify]", "[notify]\nterminal = \"osc777\"\ncommand = \"notify-send corral\"\nmin_interval = \"1m\"\n" +
			"[[run]]\nname = \"a\"\ncmd = \"x\"\nagent = \"codex\"\n",
			&File{Path: "corral.toml", Notify: Notify{Terminal: NotifyOSC777, Command: "notify-send corral",
				MinInterval: time.Minute, Line: 1},
				Runs: []RunEntry{{Line: 5, Name: "a", Cmd: "x", Autostart: true, Agent: "codex", AgentLine: 8}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse("corral.toml", []byte(c.doc))
			if err != nil {
				t.Fatal(err)
			}
			if c.want.Notify == (Notify{}) {
				c.want.Notify = DefaultNotify()
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestParseBad(t *testing.T) {
	const run = "[[run]]\nname = \"build\"\n"
	cases := []struct {
		name, doc string
		line      int
		in, key   string
		msg       string // part of the message
	}{
		{"unknown key in run", run + "cmd = \"make\"\ntmeout = \"5s\"\n", 4, `run "build"`, "tmeout", `did you mean "timeout"`},
		{"unknown key in defaults", "[defaults]\n\ngrase = \"5s\"\n", 3, "[defaults]", "grase", `did you mean "grace"`},
		{"dotted unknown key", run + "cmd = \"make\"\npty.on = true\n", 4, `run "build"`, "pty.on", "unknown key"},
		{"unknown top-level table", "[defaults]\n[defalts]\n", 2, "", "", "unknown table [defalts] (did you mean [defaults]?)"},
		{"unknown array table", "[[runs]]\nname = \"a\"\n", 1, "", "", "unknown table [[runs]]"},
		{"run as a plain table", "[run]\nname = \"a\"\n", 1, "", "", "want [[run]]"},
		{"top-level key", "grace = \"1s\"\n", 1, "", "grace", "belongs in [defaults]"},
		{"bad duration", run + "cmd = \"make\"\ntimeout = \"5 minutes\"\n", 4, `run "build"`, "timeout", `want a duration like "30s"`},
		{"duration as a number", "[defaults]\ngrace = 5\n", 2, "[defaults]", "grace", "want a duration string"},
		{"negative timeout", run + "cmd = \"make\"\ntimeout = \"-1s\"\n", 4, `run "build"`, "timeout", "0 or more"},
		{"zero grace", "[defaults]\ngrace = \"0s\"\n", 2, "[defaults]", "grace", "above 0"},
		{"negative cap", "[defaults]\noutput_cap = -1\n", 2, "[defaults]", "output_cap", "integer from 1"},
		{"cmd and argv", run + "cmd = \"make\"\nargv = [\"make\"]\n", 4, `run "build"`, "argv", "not both"},
		{"neither cmd nor argv", "\n" + run + "pty = true\n", 2, `run "build"`, "", `missing "cmd"`},
		{"empty argv", run + "argv = []\n", 3, `run "build"`, "argv", "program and its arguments"},
		{"blank cmd", run + "cmd = \"  \"\n", 3, `run "build"`, "cmd", "non-empty"},
		{"missing name", "[[run]]\ncmd = \"make\"\n", 1, "run #1", "", `missing key "name"`},
		{"duplicate name", run + "cmd = \"a\"\n\n[[run]]\ncmd = \"b\"\nname = \"build\"\n", 7, "run #2", "name", "taken by the run on line 1"},
		{"bad escape policy", run + "cmd = \"a\"\nescape_policy = \"ignore\"\n", 4, `run "build"`, "escape_policy", `want "own" or "fail" or "warn"`},
		{"bad reconcile policy", "[defaults]\nreconcile_policy = \"kill\"\n", 2, "[defaults]", "reconcile_policy", `want "terminate" or "adopt"`},
		{"pty as a string", run + "cmd = \"a\"\npty = \"yes\"\n", 4, `run "build"`, "pty", `want true or false, not the string "yes"`},
		{"restore as a string", run + "cmd = \"a\"\n\nrestore = \"yes\"\n", 5, `run "build"`, "restore", `want true or false, not the string "yes"`},
		{"size out of range", run + "cmd = \"a\"\ncols = 0\nrows = 40\n", 4, `run "build"`, "cols", "from 1 to 1000"},
		{"size half given", run + "cmd = \"a\"\nrows = 40\n", 4, `run "build"`, "rows", `set "cols" too`},
		{"bad stop signal", run + "cmd = \"a\"\nstop_signal = \"SIG-TERM\"\n", 4, `run "build"`, "stop_signal", "signal name"},
		{"bad env name", run + "cmd = \"a\"\nenv = { \"A=B\" = \"1\" }\n", 4, `run "build"`, `env."A=B"`, "without '='"},
		{"env value not a string", run + "cmd = \"a\"\n[run.env]\nX = 1\n", 5, `run "build"`, "env.X", "want a string"},
		{"env outside a run", "[run.env]\nX = \"1\"\n", 1, "", "", "must follow the [[run]]"},
		{"argv element on its own line", run + "argv = [\n  \"a\",\n  3,\n]\n", 5, `run "build"`, "argv", "want a string, not 3"},
		{"keys not strings", "[keys]\ncancel = 3\n", 2, "[keys]", "cancel", "array of strings"},
		{"worktree not a bool", run + "cmd = \"a\"\nworktree = \"yes\"\n", 4, `run "build"`, "worktree", "want true or false"},
		{"branch without worktree", run + "cmd = \"a\"\nbranch = \"x\"\n", 4, `run "build"`, "branch", `set "worktree = true" too`},
		{"bad branch", run + "cmd = \"a\"\nworktree = true\nbranch = \"a..b\"\n", 5, `run "build"`, "branch", "not a git branch name"},
		{"empty setup step", "[worktree]\nsetup = [\n  \"true\",\n  \" \",\n]\n", 4, "[worktree]", "setup", "want a non-empty string"},
		{"setup not a list", "[worktree]\nsetup = \"npm ci\"\n", 2, "[worktree]", "setup", "array of strings"},
		{"worktree key unknown", "[worktree]\nroots = \"/x\"\n", 2, "[worktree]", "roots", `did you mean "root"`},
		{"worktree_root in defaults", "[defaults]\nworktree_root = \"/x\"\n", 2, "[defaults]", "worktree_root", "root in a [worktree] table"},
		{"host as a plain table", "[host]\nname = \"a\"\n", 1, "", "", "want [[host]]"},
		{"host at the top level", "host = \"a\"\n", 1, "", "host", "[[host]] table"},
		{"host without a name", "[[host]]\nssh = \"a\"\n", 1, "host #1", "", `missing key "name"`},
		{"host without ssh", "\n[[host]]\nname = \"gpu\"\n", 2, `host "gpu"`, "", `missing key "ssh"`},
		{"host named local", "[[host]]\nname = \"local\"\nssh = \"a\"\n", 2, "host #1", "name", "this machine's server"},
		{"host named twice", "[[host]]\nname = \"a\"\nssh = \"a\"\n[[host]]\nname = \"a\"\nssh = \"b\"\n", 5,
			"host #2", "name", "taken by the host on line 1"},
		{"host key unknown", "[[host]]\nname = \"a\"\nssh = \"a\"\nstatedir = \"/x\"\n", 4, `host "a"`, "statedir",
			`did you mean "state_dir"`},
		{"host ssh an option", "[[host]]\nname = \"a\"\nssh = \"-oProxyCommand=x\"\n", 3, `host "a"`, "ssh", "ssh destination"},
		{"host ssh blank", "[[host]]\nname = \"a\"\nssh = \" \"\n", 3, `host "a"`, "ssh", "non-empty"},
		{"host corral relative", "[[host]]\nname = \"a\"\nssh = \"a\"\ncorral = \"bin/corral\"\n", 4, `host "a"`, "corral",
			"absolute path on the host"},
		{"host state_dir not a string", "[[host]]\nname = \"a\"\nssh = \"a\"\nstate_dir = 1\n", 4, `host "a"`, "state_dir",
			"want a string"},
		{"syntax: unterminated string", "[defaults]\ngrace = \"5s\n", 2, "", "", "TOML:"},
		{"syntax: duplicate key", run + "cmd = \"a\"\ncmd = \"b\"\n", 4, "", "", "already defined"},
		{"syntax: table twice", "[defaults]\n[keys]\n[defaults]\n", 3, "", "", "already exists"},
		{"syntax: missing value", "[defaults]\n\ngrace =\n", 3, "", "", "TOML:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("corral.toml", []byte(c.doc))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want an *Error", err)
			}
			if e.Line != c.line || e.In != c.in || e.Key != c.key || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("got line %d in %q key %q msg %q\nwant line %d in %q key %q msg containing %q",
					e.Line, e.In, e.Key, e.Msg, c.line, c.in, c.key, c.msg)
			}
			if !errors.Is(err, ErrInvalid) || !strings.HasPrefix(err.Error(), "corral.toml:") {
				t.Errorf("err = %q, want ErrInvalid starting with the file name", err)
			}
		})
	}
}

func TestErrorMessage(t *testing.T) {
	_, err := Parse("corral.toml", []byte("[[run]]\nname = \"build\"\ncmd = \"make\"\npty = \"yes\"\n"))
	want := `corral.toml:4: run "build": key "pty": want true or false, not the string "yes"`
	if err == nil || err.Error() != want {
		t.Fatalf("err = %v\nwant %s", err, want)
	}
}

func TestApplyOverridesOnlySetKeys(t *testing.T) {
	f, err := Parse("corral.toml", []byte("[defaults]\ngrace = \"9s\"\nno_output_timeout = \"0\"\nescape_policy = \"warn\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Grace = 9 * time.Second
	want.NoOutputTimeout = -1 // the file's 0 is off
	want.EscapePolicy = EscapeWarn
	if got := f.Apply(Default()); got != want {
		t.Errorf("Apply = %+v\nwant    %+v", got, want)
	}
	if got := (*File)(nil).Apply(Default()); got != Default() {
		t.Errorf("nil File changed the defaults: %+v", got)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "corral.toml")
	doc := "[defaults]\nstate_dir = \"state\"\n[[run]]\nname = \"a\"\ncmd = \"x\"\ncwd = \"web\"\n"
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir()) // relative paths follow the file, not the working directory
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := f.Runs[0].Cwd, filepath.Join(dir, "web"); got != want {
		t.Errorf("cwd = %q, want %q", got, want)
	}
	if got, want := f.Defaults.StateDir, filepath.Join(dir, "state"); got != want {
		t.Errorf("state_dir = %q, want %q", got, want)
	}
	if _, err := Load(filepath.Join(dir, "missing.toml")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: err = %v, want os.ErrNotExist", err)
	}
}

func TestParityKey(t *testing.T) {
	f, err := Parse("corral.toml", []byte("[[run]]\nname = \"probe\"\ncmd = \"ls --color=auto\"\nparity = true\n"))
	if err != nil || len(f.Runs) != 1 || !f.Runs[0].Parity {
		t.Fatalf("parity = true: %+v %v", f, err)
	}
	if _, err := Parse("corral.toml", []byte("[[run]]\nname = \"x\"\nparity = \"yes\"\ncmd = \"x\"\n")); err == nil ||
		!strings.Contains(err.Error(), "corral.toml:3") {
		t.Fatalf("a bad parity value: %v", err)
	}
}

func TestByteOrderMarkAccepted(t *testing.T) {
	f, err := Parse("corral.toml", []byte("\xef\xbb\xbf[[run]]\nname = \"a\"\ncmd = \"x\"\n"))
	if err != nil || len(f.Runs) != 1 || f.Runs[0].Line != 1 {
		t.Fatalf("a file with a BOM: %+v %v", f, err)
	}
}

// Every mistake is reported at once, each with its line, up to 20.
func TestEveryMistakeReported(t *testing.T) {
	doc := "[defaults]\ngrace = \"soon\"\nbogus = 1\n\n[[run]]\nname = \"a\"\ncmd = \"x\"\npty = \"yes\"\n\n" +
		"[[run]]\nname = \"b\"\ncmd = \"y\"\ncols = 0\n\n[keys]\ncancel = 3\n"
	_, err := Parse("corral.toml", []byte(doc))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"corral.toml:2:", "corral.toml:3:", "corral.toml:8:", "corral.toml:13:", "corral.toml:16:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %s in\n%s", want, err)
		}
	}
	var e *Error
	if !errors.As(err, &e) || e.Line != 2 {
		t.Errorf("the first problem is not an *Error at line 2: %v", e)
	}
	var many strings.Builder
	many.WriteString("[defaults]\n")
	for i := range 25 {
		fmt.Fprintf(&many, "bogus%d = 1\n", i)
	}
	_, err = Parse("corral.toml", []byte(many.String()))
	if lines := strings.Split(err.Error(), "\n"); len(lines) != 21 || lines[20] != "… and 5 more" {
		t.Errorf("cap: %d lines, last %q", len(lines), lines[len(lines)-1])
	}
}

func TestParseWorktree(t *testing.T) {
	f, err := Parse("/repo/corral.toml", []byte("[worktree]\nroot = \"../wts\"\nsetup = [\"cp $CORRAL_REPO/.env .\", \"npm ci\"]\n\n[[run]]\nname = \"a\"\ncmd = \"claude\"\nworktree = true\nbranch = \"feat/a\"\nbase = \"main\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f.Worktree.Root != "/wts" || len(f.Worktree.Setup) != 2 || f.Worktree.Line != 1 {
		t.Fatalf("worktree %+v", f.Worktree)
	}
	if r := f.Runs[0]; !r.Worktree || r.Branch != "feat/a" || r.Base != "main" {
		t.Fatalf("run %+v", r)
	}
}

// corral check's effective configuration shows [worktree] and a run's worktree keys,
// and reads back as the same.
func TestEffectiveWorktree(t *testing.T) {
	src := "[worktree]\nroot = \"/wts\"\nsetup = [\"npm ci\"]\n\n[[run]]\nname = \"a\"\ncmd = \"claude\"\nworktree = true\nbranch = \"feat/a\"\nbase = \"main\"\n"
	f, err := Parse("/repo/corral.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	out := f.Effective(Default())
	g, err := Parse("/repo/corral.toml", []byte(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if g.Worktree.Root != "/wts" || len(g.Worktree.Setup) != 1 || !g.Runs[0].Worktree || g.Runs[0].Branch != "feat/a" || g.Runs[0].Base != "main" {
		t.Fatalf("read back %+v %+v from\n%s", g.Worktree, g.Runs[0], out)
	}
}

// restore = true marks a plain command to be started again after a reboot.
func TestRunRestoreKey(t *testing.T) {
	f, err := Parse("corral.toml", []byte("[[run]]\nname = \"web\"\ncmd = \"npm start\"\nrestore = true\n[[run]]\nname = \"b\"\ncmd = \"x\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !f.Runs[0].Restore || f.Runs[1].Restore {
		t.Errorf("restore: %v %v, want true false", f.Runs[0].Restore, f.Runs[1].Restore)
	}
}
