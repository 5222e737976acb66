package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/runs/agentstate"
)

// fakeCLI installs a package the way npm does (lib/node_modules/PKG with its
// package.json, bin/NAME a link into it) under prefix.
func fakeCLI(t *testing.T, prefix, pkg, version, name string) {
	t.Helper()
	dir := filepath.Join(prefix, "lib", "node_modules", pkg)
	os.MkdirAll(filepath.Join(dir, "bin"), 0o755)
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"`+pkg+`","version":"`+version+`"}`), 0o644)
	os.WriteFile(filepath.Join(dir, "bin", "cli"), []byte("#!/bin/sh\nexit 3\n"), 0o755)
	os.MkdirAll(filepath.Join(prefix, "bin"), 0o755)
	if err := os.Symlink(filepath.Join(dir, "bin", "cli"), filepath.Join(prefix, "bin", name)); err != nil {
		t.Fatal(err)
	}
}

// corral doctor lists the agent CLIs on PATH with their versions, read from their
// package.json without running them, and says which are newer than the versions the
// rules were recorded with; a CLI installed otherwise is asked its --version, bounded.
func TestDoctorAgentCLIs(t *testing.T) {
	prefix := t.TempDir()
	set := agentstate.Builtin()
	codex := set.Named("codex")
	fakeCLI(t, prefix, "@anthropic-ai/claude-code", "9.0.0", "claude")
	// A codex whose link leads nowhere is passed over, as a shell would.
	fakeCLI(t, prefix, "@openai/codex", "9.0.0", "codex")
	os.RemoveAll(filepath.Join(prefix, "lib", "node_modules", "@openai"))
	other := t.TempDir()
	fakeCLI(t, other, "@openai/codex", codex.Recorded[len(codex.Recorded)-1], "codex")
	// A gemini that is no npm package and says its version when asked.
	os.WriteFile(filepath.Join(other, "bin", "gemini"), []byte("#!/bin/sh\necho 0.1.0\n"), 0o755)

	began := time.Now()
	lines := agentCLIs(set.Agents(), filepath.Join(prefix, "bin")+string(os.PathListSeparator)+filepath.Join(other, "bin"))
	took := time.Since(began)
	got := map[string]string{}
	for _, l := range lines {
		got[l.name] = l.text
	}
	want := map[string]string{
		"claude": "9.0.0: newer than recorded: rules may be stale",
		"codex":  filepath.Join(other, "bin", "codex") + " " + codex.Recorded[len(codex.Recorded)-1] + ": recorded",
		"gemini": "0.1.0 (its --version): older than recorded",
	}
	for name, w := range want {
		if !strings.Contains(got[name], w) {
			t.Errorf("%s: %q, want it to say %q", name, got[name], w)
		}
	}
	if _, ok := got["opencode"]; ok || len(lines) != 3 {
		t.Errorf("lines for CLIs not on PATH: %+v", lines)
	}
	t.Logf("%d agent CLIs in %v", len(lines), took)
}
