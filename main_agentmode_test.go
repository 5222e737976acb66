package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/runs/agentstate/agenttest"
)

// A real Claude Code whose user made auto mode the default (its settings, no flag):
// offline against the scripted model server it runs the command without asking, and
// the run says so — agent_mode "auto" in ls --json, "(auto)" after its state in ls —
// from its footer, so that "no question" is not taken for "nothing to do". Then
// shift+tab cycles it out of auto mode, and the run follows. Skipped when the CLI is
// not installed (CORRAL_AGENTS_PREFIX, or CORRAL_AGENTS_LATEST for the newest).
func TestRealAgentAutoMode(t *testing.T) {
	a, _ := agenttest.Lookup("claude")
	_, launch, root := realAgentLaunch(t, a, "corral-e2e-auto-")
	settings := filepath.Join(root, "home", ".claude", "settings.json")
	if err := os.WriteFile(settings, []byte(`{"permissions": {"defaultMode": "auto"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env, notified := agentEnv(t)
	corralAt := launchCorral(t, launch, env)
	sp := corralAt(append([]string{"spawn", "--pty", "--agent", "claude", "--name", "auto", "--"}, launch.Argv...)...)
	id := strings.TrimSpace(sp.stdout)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	state := strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
	endLater(t, testkit.Pin(t, serverPID(t, state)), syscall.SIGTERM, "server")
	if r := corralAt("wait", id, "--until", "idle", "--timeout", "90s"); r.code != 0 {
		t.Fatalf("wait --until idle: %+v\n%s", r, corralAt("screen", id).stdout)
	}
	mode := func() string { return lsMode(t, corralAt, id) }
	eventually.True(t, 30*time.Second, "ls --json says auto mode", func() bool { return mode() == "auto" })
	if r := corralAt("ls"); !strings.Contains(r.stdout, "claude ✓ idle (auto)") {
		t.Errorf("ls does not mark the mode:\n%s\n%s", r.stdout, corralAt("screen", id).stdout)
	}
	if r := corralAt("submit", id, "Please check that the workspace is writable."); r.code != 0 {
		t.Fatalf("submit: %+v", r)
	}
	eventually.True(t, 90*time.Second, "the answer, without a question", func() bool {
		return strings.Contains(corralAt("screen", id).stdout, agenttest.DoneToken)
	})
	if _, err := os.Stat(filepath.Join(launch.Dir, "corral-ok.txt")); err != nil {
		t.Errorf("the command did not run in auto mode: %v\n%s", err, corralAt("screen", id).stdout)
	}
	if r := corralAt("wait", id, "--until", "idle", "--timeout", "90s"); r.code != 0 {
		t.Fatalf("wait --until idle after the turn: %+v", r)
	}
	if b, _ := os.ReadFile(notified); strings.Contains(string(b), `"event":"waiting"`) {
		t.Errorf("a question was told in auto mode:\n%s", b)
	}
	if m := mode(); m != "auto" {
		t.Errorf("after the turn: mode %q, want auto", m)
	}
	// shift+tab cycles the mode: out of auto mode the footer no longer says it, and
	// the run follows at the prompt.
	corralAt("send-keys", id, "BTab")
	eventually.True(t, 30*time.Second, "another mode than auto after shift+tab", func() bool {
		return !strings.Contains(corralAt("screen", id).stdout, "auto mode on") && mode() != "auto"
	})
	t.Logf("after shift+tab: mode %q", mode())
	if r := corralAt("shutdown"); r.code != 0 {
		t.Errorf("shutdown: %+v", r)
	}
}

// lsMode is a run's agent_mode in ls --json.
func lsMode(t *testing.T, corralAt func(...string) result, id string) string {
	var ls struct {
		Runs []struct {
			RunID     string `json:"run_id"`
			AgentMode string `json:"agent_mode"`
		} `json:"runs"`
	}
	json.Unmarshal([]byte(corralAt("ls", "--json").stdout), &ls)
	for _, r := range ls.Runs {
		if r.RunID == id {
			return r.AgentMode
		}
	}
	return "(not listed)"
}

// A real Gemini CLI toggled into YOLO mode by Ctrl+Y (no flag) shows it under its
// input box, and the run follows: agent_mode "YOLO", then none again after another
// Ctrl+Y. Skipped when the CLI is not installed.
func TestRealAgentYoloToggle(t *testing.T) {
	a, _ := agenttest.Lookup("gemini")
	_, launch, _ := realAgentLaunch(t, a, "corral-e2e-yolo-")
	env, _ := agentEnv(t)
	corralAt := launchCorral(t, launch, env)
	sp := corralAt(append([]string{"spawn", "--pty", "--agent", "gemini", "--name", "yolo", "--"}, launch.Argv...)...)
	id := strings.TrimSpace(sp.stdout)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	state := strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
	endLater(t, testkit.Pin(t, serverPID(t, state)), syscall.SIGTERM, "server")
	if r := corralAt("wait", id, "--until", "idle", "--timeout", "90s"); r.code != 0 {
		t.Fatalf("wait --until idle: %+v\n%s", r, corralAt("screen", id).stdout)
	}
	if m := lsMode(t, corralAt, id); m != "" {
		t.Fatalf("before Ctrl+Y: mode %q", m)
	}
	for _, want := range []string{"YOLO", ""} {
		corralAt("send-keys", id, "C-y")
		eventually.True(t, 30*time.Second, "mode "+want+" after Ctrl+Y", func() bool { return lsMode(t, corralAt, id) == want })
		if r := corralAt("info", id); want != "" && !strings.Contains(r.stdout, `"agent_mode": "YOLO"`) {
			t.Errorf("info does not say the mode:\n%s", r.stdout)
		}
	}
	if r := corralAt("shutdown"); r.code != 0 {
		t.Errorf("shutdown: %+v", r)
	}
}
