package agentstate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An agent is recognised by the program its command runs, through the wrappers people
// put in front of it; anything else is no agent.
func TestRecognize(t *testing.T) {
	s := Builtin()
	for _, tt := range []struct {
		argv  []string
		shell string
		want  string
	}{
		{argv: []string{"claude"}, want: "claude"},
		{argv: []string{"/usr/local/bin/claude", "--resume"}, want: "claude"},
		{argv: []string{"env", "-u", "TMUX", "FOO=1", "claude"}, want: "claude"},
		{argv: []string{"npx", "-y", "@anthropic-ai/claude-code@latest"}, want: "claude"},
		{argv: []string{"pnpm", "dlx", "@openai/codex"}, want: "codex"},
		{argv: []string{"node", "--no-warnings", "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"}, want: "claude"},
		{argv: []string{"sudo", "-u", "dev", "nice", "-n", "5", "codex", "--full-auto"}, want: "codex"},
		{argv: []string{"timeout", "-s", "INT", "1h", "codex"}, want: "codex"},
		{argv: []string{"bash", "-lc", "cd /src && claude"}, want: ""}, // the first command decides: cd
		{argv: []string{"bash", "-lc", "exec claude --resume"}, want: "claude"},
		{shell: "FOO=1 exec codex resume", want: "codex"},
		{shell: "claude; echo done", want: "claude"},
		{argv: []string{"vim", "claude.md"}, want: ""},
		{argv: []string{"sleep", "10"}, want: ""},
		{argv: []string{"node", "server.js"}, want: ""},
		{argv: nil, want: ""},
	} {
		got := ""
		if a := s.Recognize(tt.argv, tt.shell); a != nil {
			got = a.Name
		}
		if got != tt.want {
			t.Errorf("%q %q: %q, want %q", tt.argv, tt.shell, got, tt.want)
		}
	}
}

// A NAME=value word is an assignment whatever its value holds (a path, another "="),
// before the program or among env's options; a word whose part before "=" is no
// identifier is the program; a shell running a script file runs that script.
func TestUnwrapAssignments(t *testing.T) {
	for _, tt := range []struct {
		argv []string
		want string
	}{
		{[]string{"HOME=/srv/agent-home", "claude"}, "claude"},
		{[]string{"env", "HOME=/srv/agent-home", "CLAUDE_CONFIG_DIR=/a/b", "claude"}, "claude"},
		{[]string{"env", "-u", "FOO", "HOME=/a/b", "/opt/bin/claude", "--resume"}, "claude"},
		{[]string{"env", "-i", "PATH=/usr/bin:/bin", "A=b=c", "_X1=", "codex"}, "codex"},
		{[]string{"X=1", "Y=/tmp", "env", "Z=/z", "codex"}, "codex"},
		{[]string{"/opt/a=b/claude"}, "claude"},        // "=" in a path: no identifier before it
		{[]string{"./run=fast", "claude"}, "run=fast"}, // a program whose name holds "="
		{[]string{"1X=2", "claude"}, "1X=2"},           // an identifier does not start with a digit
		{[]string{"=x", "claude"}, "=x"},
		{[]string{"env", "FOO-BAR=1", "claude"}, "FOO-BAR=1"},
		{[]string{"sh", "/usr/local/bin/claude-wrapper"}, "claude-wrapper"},
		{[]string{"/bin/sh", "-c", "HOME=/x/y exec claude"}, "claude"},
	} {
		if got, _ := unwrap(tt.argv); got != tt.want {
			t.Errorf("unwrap(%q) = %q, want %q", tt.argv, got, tt.want)
		}
	}
	a, how := Builtin().RecognizeHow([]string{"env", "-u", "FOO", "HOME=/srv/agent-home", "/x/claude"}, "")
	if a == nil || a.Name != "claude" || how != "env … → claude" {
		t.Errorf("RecognizeHow: %v %q", a, how)
	}
	for path, want := range map[string]string{
		"/p/lib/node_modules/@anthropic-ai/claude-code/bin/claude.exe": "claude",
		"/usr/local/bin/codex": "codex", "/usr/bin/node": "", "/usr/bin/dash": ""} {
		got := ""
		if a, _ := Builtin().RecognizeFile(path); a != nil {
			got = a.Name
		}
		if got != want {
			t.Errorf("RecognizeFile(%s) = %q, want %q", path, got, want)
		}
	}
	if _, how := Builtin().RecognizeHow([]string{"node", "/l/node_modules/@openai/codex/bin/codex.js"}, ""); how != "node … → @openai/codex" {
		t.Errorf("RecognizeHow of a package: %q", how)
	}
}

// A user's rule file replaces the built-in one of its agent or adds one, tried first;
// a file with a mistake is skipped with its file and line, and the rest still load.
func TestLoadUserRules(t *testing.T) {
	dir := t.TempDir()
	write := func(name, src string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("claude.toml", "agent = \"claude\"\ncommands = [\"claude\", \"cc\"]\n[[rule]]\nname = \"mine\"\nstate = \"idle\"\nregion = \"title\"\nany = ['x']\n")
	write("aider.toml", "agent = \"aider\"\ncommands = [\"aider\"]\n[[rule]]\nname = \"p\"\nstate = \"idle\"\nregion = \"bottom 2\"\nany = ['^> ']\n")
	write("broken.toml", "agent = \"broken\"\n[[rule]]\nname = \"p\"\nstate = \"sleepy\"\nregion = \"title\"\nany = ['x']\n")
	s, errs := Load(dir)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "broken.toml:4") {
		t.Fatalf("errors: %v", errs)
	}
	if a := s.Named("claude"); a == nil || len(a.Rules) != 1 || a.Rules[0].Name != "mine" {
		t.Errorf("claude not replaced: %+v", a)
	}
	if a := s.Recognize([]string{"cc"}, ""); a == nil || a.Name != "claude" {
		t.Errorf("the user's command for claude: %v", a)
	}
	if a := s.Recognize([]string{"aider", "--model", "x"}, ""); a == nil || a.Name != "aider" {
		t.Errorf("an added agent: %v", a)
	}
	if s.Named("codex") == nil || s.Named("broken") != nil {
		t.Errorf("agents: %v", s.Names())
	}
	if _, errs := Load(filepath.Join(dir, "missing")); len(errs) != 0 {
		t.Errorf("a missing dir: %v", errs)
	}
}
