package agentstate

import "testing"

// opencode is recognised however it is started: its command (the npm bin link, or the
// binary npm installs as bin/opencode.exe, which is what a process's executable
// shows), npx of its package, or node running a file of the package.
func TestRecognizeOpencode(t *testing.T) {
	s := Builtin()
	for _, argv := range [][]string{
		{"opencode"},
		{"/root/agent-cli/bin/opencode", "--continue"},
		{"/usr/lib/node_modules/opencode-ai/bin/opencode.exe"},
		{"npx", "opencode-ai"},
		{"npx", "-y", "opencode-ai@1.18.33"},
		{"node", "/usr/lib/node_modules/opencode-ai/bin/opencode"},
		{"env", "-u", "TMUX", "FOO=1", "opencode"},
	} {
		a := s.Recognize(argv, "")
		if a == nil || a.Name != "opencode" {
			t.Errorf("%q: %v, want opencode", argv, a)
		}
	}
	if a := s.Named("opencode"); a == nil || a.Title != "opencode" || a.Source != "builtin:opencode.toml" {
		t.Errorf("built-in opencode: %+v", a)
	}
}
