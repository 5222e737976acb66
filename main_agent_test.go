package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/demo/testkit/eventually"
	"corral/runs"
)

// toyAgent is an agent in a PTY the way the real ones behave where it matters: it
// takes a while to start and throws away what was typed before it was ready (codex
// drops a prompt typed before its app-server is up), works, asks for permission,
// works again and goes back to its prompt. Its rules (testkit.ToyRules) are a user's
// rule file.
const toyAgent = `sleep 1; while read -t 0.05 -r junk; do :; done
draw() { printf '\033[H\033[2J\033]0;%s\007%b' "$1" "$2"; }
draw 'toy' 'toy agent v1\r\n\r\n> '; read -r prompt
draw '⠂ toy' "working on: $prompt\r\n(esc to interrupt)"; sleep 2
draw 'toy' 'Allow toy to run ls?\r\n  1. Yes\r\n  2. No\r\n'; read -r answer
draw '⠂ toy' 'running ls\r\n(esc to interrupt)'; sleep 2
draw 'toy' "done: $prompt TOY-DONE\r\n\r\n> "; read -r more; sleep 600`

// agentEnv is a private state dir, config dir (with the toy's rules) and config file
// (a [notify] command that appends each notification to notified).
func agentEnv(t testing.TB) (env []string, notified string) {
	t.Helper()
	dir := t.TempDir()
	notified = filepath.Join(dir, "notified")
	cfg := filepath.Join(dir, "config")
	os.MkdirAll(filepath.Join(cfg, "corral", "agents"), 0o700)
	os.WriteFile(filepath.Join(cfg, "corral", "agents", "toy.toml"), []byte(testkit.ToyRules), 0o600)
	conf := filepath.Join(dir, "corral.toml")
	os.WriteFile(conf, []byte("[notify]\ncommand = \"cat >> "+notified+"\"\nmin_interval = \"0s\"\n"), 0o600)
	env = []string{"CORRAL_STATE_DIR=" + filepath.Join(dir, "state"), "XDG_CONFIG_HOME=" + cfg, "CORRAL_CONFIG=" + conf}
	if v, ok := os.LookupEnv(runs.CgroupRootEnv); ok { // the backend under test, for the real agents' small env too
		env = append(env, runs.CgroupRootEnv+"="+v)
	}
	return env, notified
}

func agentCorral(t testing.TB, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(corralBin, args...)
	cmd.Env = append(os.Environ(), env...)
	return run(t, cmd)
}

// A script drives an agent through the server: submit right after spawn waits until
// the agent is ready (what it typed early would be lost) and checks it took; wait
// --until follows its state; screen shows what a person sees; explain says why;
// ls, poll and wait carry the state; the [notify] command hears of the question once.
func TestAgentVerbs(t *testing.T) {
	env, notified := agentEnv(t)
	sp := agentCorral(t, env, "spawn", "--pty", "--agent", "toy", "--name", "toy", "--shell", "--", toyAgent)
	id := strings.TrimSpace(sp.stdout)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	state := strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
	srv := testkit.Pin(t, serverPID(t, state))
	endLater(t, srv, syscall.SIGTERM, "server")
	if r := agentCorral(t, env, "submit", "--json", id, "fix", "the", "tests"); r.code != 0 || !strings.Contains(r.stdout, `"took": "left idle"`) {
		t.Fatalf("submit right after spawn: %+v", r)
	}
	w := agentCorral(t, env, "wait", id, "--until", "waiting", "--timeout", "20s", "--json")
	var st struct {
		Reached    bool   `json:"reached"`
		AgentState string `json:"agent_state"`
		AgentRule  string `json:"agent_rule"`
		Since      string `json:"agent_state_since"`
	}
	if err := json.Unmarshal([]byte(w.stdout), &st); err != nil || w.code != 0 || !st.Reached ||
		st.AgentState != "waiting" || st.AgentRule != "question" || st.Since == "" {
		t.Fatalf("wait --until waiting: %v %+v", err, w)
	}
	if r := agentCorral(t, env, "screen", id); !strings.Contains(r.stdout, "working on: fix the tests") &&
		!strings.Contains(r.stdout, "Allow toy to run ls?\n  1. Yes") {
		t.Errorf("screen: %+v", r)
	}
	for _, verb := range [][]string{{"explain", "--json", id}, {"screen", "--json", "-e", id}, {"ls", "--json"}} {
		checkDocs(t, verb[0]+" --json", []byte(agentCorral(t, env, verb...).stdout), false)
	}
	if r := agentCorral(t, env, "explain", id); r.code != 0 || !strings.Contains(r.stdout, "waiting since") ||
		!strings.Contains(r.stdout, "MATCH  100  waiting  question") || !strings.Contains(r.stdout, "bottom 6:") {
		t.Errorf("explain: %+v", r)
	}
	for _, verb := range [][]string{{"ls", "--json"}, {"poll", id, "--json"}} {
		if r := agentCorral(t, env, verb...); !strings.Contains(r.stdout, `"agent_state": "waiting"`) {
			t.Errorf("%s does not carry the state: %+v", verb[0], r)
		}
	}
	if r := agentCorral(t, env, "explain", id); !strings.Contains(r.stdout, `question  bottom 6: "Allow toy to run" matched "Allow toy to run ls?" in its row`) {
		t.Errorf("explain does not say why the question matched: %+v", r)
	}
	if r := agentCorral(t, env, "ls"); !regexp.MustCompile(`(?m)^` + id + `\s+toy\s+pty\s+running\s+toy ! waiting\s`).MatchString(r.stdout) {
		t.Errorf("ls has no AGENT column with the state: %+v", r)
	}
	if r := agentCorral(t, env, "wait", id, "--until", "idle", "--timeout", "50ms"); r.code != 124 {
		t.Errorf("wait --until idle while it waits: %+v", r)
	}
	agentCorral(t, env, "send-keys", id, "Enter")
	if r := agentCorral(t, env, "wait", id, "--until", "idle", "--timeout", "20s"); r.code != 0 || !strings.HasPrefix(r.stdout, id+" idle since") {
		t.Fatalf("wait --until idle: %+v", r)
	}
	if r := agentCorral(t, env, "screen", id); !strings.Contains(r.stdout, "done: fix the tests TOY-DONE") {
		t.Errorf("the answer on screen: %+v", r)
	}
	// The notify command runs on its own after the state moved: wait for its second
	// line (it failed once under load, read right after wait --until idle).
	lines, _ := eventually.Within(10*time.Second, func() ([]string, bool) {
		b, _ := os.ReadFile(notified)
		l := strings.Split(strings.TrimSpace(string(b)), "\n")
		return l, len(l) >= 2
	})
	var n struct{ Event, Text string }
	if len(lines) != 2 || json.Unmarshal([]byte(lines[0]), &n) != nil || n.Event != "waiting" ||
		n.Text != "toy: toy waits for you — Allow toy to run ls?" || !strings.Contains(lines[1], `"turn-ended"`) {
		t.Errorf("notifications: %q", lines)
	}
	if r := agentCorral(t, env, "shutdown"); r.code != 0 {
		t.Fatalf("shutdown: %+v", r)
	}
	waitGone(t, srv.PID, "server")
}

// corral hook reports an agent hook's word to the run in $CORRAL_RUN_ID and never
// fails the agent; corral agents lists the rules, a user's included, and prints the
// hook settings.
func TestAgentHookAndRules(t *testing.T) {
	env, _ := agentEnv(t)
	sp := agentCorral(t, env, "spawn", "--pty", "--agent", "toy", "--shell", "--", toyAgent)
	id := strings.TrimSpace(sp.stdout)
	state := strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
	endLater(t, testkit.Pin(t, serverPID(t, state)), syscall.SIGTERM, "server")
	eventually.True(t, 20*time.Second, "the toy at its prompt", func() bool {
		return agentCorral(t, env, "wait", id, "--until", "idle", "--timeout", "1s").code == 0
	})
	hook := exec.Command(corralBin, "hook", "--json")
	hook.Env = append(os.Environ(), append(env, "CORRAL_RUN_ID="+id)...)
	hook.Stdin = strings.NewReader(`{"hook_event_name":"Stop"}`)
	if r := run(t, hook); r.code != 0 || !strings.Contains(r.stdout, `"state": "idle"`) {
		t.Fatalf("hook: %+v", r)
	}
	if r := agentCorral(t, env, "explain", id); !strings.Contains(r.stdout, "by rule prompt + hook Stop") {
		t.Errorf("explain after the hook: %+v", r)
	}
	outside := exec.Command(corralBin, "hook")
	outside.Env = append(os.Environ(), env...)
	outside.Stdin = strings.NewReader(`{"hook_event_name":"Stop"}`)
	if r := run(t, outside); r.code != 0 || !strings.Contains(r.stderr, "not in a Corral run") {
		t.Errorf("hook outside a run: %+v", r)
	}
	r := agentCorral(t, env, "agents")
	for _, want := range []string{"claude (Claude Code) — builtin:claude.toml", "codex", "gemini",
		"opencode (opencode) — builtin:opencode.toml", "toy (Toy agent) — ",
		"100  waiting  question  bottom 6"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("agents lacks %q:\n%s", want, r.stdout)
		}
	}
	if r := agentCorral(t, env, "agents", "--print-hooks", "claude"); !strings.Contains(r.stdout, `"Notification"`) ||
		!strings.Contains(r.stdout, ` hook"`) {
		t.Errorf("print-hooks: %+v", r)
	}
	if r := agentCorral(t, env, "spawn", "--pty", "--agent", "nope", "--", "true"); r.code == 0 || !strings.Contains(r.stderr, `no agent "nope"`) {
		t.Errorf("an unknown agent: %+v", r)
	}
	agentCorral(t, env, "shutdown")
}

// The server killed (kill -9), or upgraded, while an agent sits at its question: the
// new server takes the run back, and reading the same question again from its screen
// it says nothing — the run's record keeps what was told. Told once, exactly.
func TestAgentQuestionNotRepeatedAfterServerKill(t *testing.T) {
	for _, how := range []string{"kill -9", "upgrade"} {
		t.Run(how, func(t *testing.T) { questionNotRepeatedAfter(t, how == "upgrade") })
	}
}

func questionNotRepeatedAfter(t *testing.T, upgrade bool) {
	env, notified := agentEnv(t)
	state := strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
	redraw := filepath.Join(t.TempDir(), "redraw")
	agent := `draw() { printf '\033[H\033[2J\033]0;%s\007%b' "$1" "$2"; }
draw 'toy' 'toy agent v1\r\n\r\n> '; read -r prompt
draw '⠂ toy' "working on: $prompt\r\n(esc to interrupt)"; sleep 2
ask() { draw 'toy' 'Allow toy to run ls?\r\n  1. Yes\r\n  2. No\r\n'; }
ask; while [ ! -e ` + redraw + ` ]; do sleep 0.05; done
draw 'toy' 'redrawing'; sleep 0.2; ask; read -r answer; sleep 600`
	sp := agentCorral(t, env, "spawn", "--pty", "--agent", "toy", "--name", "toy", "--shell", "--", agent)
	id := strings.TrimSpace(sp.stdout)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	endLater(t, testkit.Pin(t, keeperPID(t, state)), syscall.SIGTERM, "keeper")
	if r := agentCorral(t, env, "submit", id, "go"); r.code != 0 {
		t.Fatalf("submit: %+v", r)
	}
	if r := agentCorral(t, env, "wait", id, "--until", "waiting", "--timeout", "20s"); r.code != 0 {
		t.Fatalf("wait --until waiting: %+v", r)
	}
	lines := func() []string {
		b, _ := os.ReadFile(notified)
		if len(b) == 0 {
			return nil
		}
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}
	if l, ok := eventually.Within(10*time.Second, func() ([]string, bool) { l := lines(); return l, len(l) == 1 }); !ok {
		t.Fatalf("notified before the kill: %q", l)
	}
	old := serverPID(t, state)
	if upgrade {
		if r := agentCorral(t, env, "server", "--upgrade"); r.code != 0 {
			t.Fatalf("upgrade: %+v", r)
		}
	} else {
		testkit.Pin(t, old).Signal(syscall.SIGKILL)
		waitGone(t, old, "the killed server")
	}
	srv := testkit.Pin(t, newServerPID(t, state, old))
	endLater(t, srv, syscall.SIGTERM, "server")
	os.WriteFile(redraw, nil, 0o600) // the question drawn again: the new server reads it
	eventually.True(t, 20*time.Second, "the new server to find the question already told", func() bool {
		b, _ := os.ReadFile(filepath.Join(state, "events.jsonl"))
		for _, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, `"msg":"notify-suppressed"`) && strings.Contains(line, `"reason":"duplicate"`) &&
				strings.Contains(line, id) {
				return true
			}
		}
		return false
	})
	if r := agentCorral(t, env, "wait", id, "--until", "waiting", "--timeout", "20s"); r.code != 0 {
		t.Fatalf("wait --until waiting after the kill: %+v", r)
	}
	if l := lines(); len(l) != 1 {
		t.Errorf("notified: %q", l)
	}
	if r := agentCorral(t, env, "shutdown"); r.code != 0 {
		t.Fatalf("shutdown: %+v", r)
	}
	waitGone(t, srv.PID, "server")
}

// A finished turn the rate limit holds when the server goes — killed (kill -9) or
// upgraded — is said by the next server when the old window ends, exactly once: the
// run's record keeps what is held. The agent ends a turn (told at once), then ends
// another within min_interval (held); the server goes before the window ends.
func TestAgentHeldNotificationSurvivesServer(t *testing.T) {
	const window = 12 * time.Second // min_interval: room for the server to go first
	for _, how := range []string{"kill", "upgrade"} {
		t.Run(how, func(t *testing.T) {
			t.Parallel()
			env, notified := agentEnv(t)
			os.WriteFile(filepath.Join(filepath.Dir(notified), "corral.toml"),
				[]byte("[notify]\ncommand = \"cat >> "+notified+"\"\nmin_interval = \"12s\"\n"), 0o600)
			state := strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
			gates := t.TempDir()
			agent := `draw() { printf '\033[H\033[2J\033]0;%s\007%b' "$1" "$2"; }
w() { while [ ! -e ` + gates + `/$1 ]; do sleep 0.05; done; }
draw 'toy' 'toy agent v1\r\n\r\n> '; w a
draw '⠂ toy' 'working\r\n(esc to interrupt)'; sleep 2
draw 'toy' 'done 1\r\n\r\n> '; w b
draw '⠂ toy' 'working\r\n(esc to interrupt)'; sleep 2
draw 'toy' 'done 2\r\n\r\n> '; sleep 600`
			sp := agentCorral(t, env, "spawn", "--pty", "--agent", "toy", "--name", "toy", "--shell", "--", agent)
			id := strings.TrimSpace(sp.stdout)
			if sp.code != 0 {
				t.Fatalf("spawn: %+v", sp)
			}
			agentSession(t, env)
			if r := agentCorral(t, env, "wait", id, "--until", "idle", "--timeout", "20s"); r.code != 0 {
				t.Fatalf("wait --until idle: %+v", r)
			}
			sent := func() []runs.Notification {
				b, _ := os.ReadFile(notified)
				var out []runs.Notification
				for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
					var n runs.Notification
					if json.Unmarshal([]byte(l), &n) == nil {
						out = append(out, n)
					}
				}
				return out
			}
			os.WriteFile(filepath.Join(gates, "a"), nil, 0o600)
			if n, ok := eventually.Within(20*time.Second, func() ([]runs.Notification, bool) {
				n := sent()
				return n, len(n) == 1
			}); !ok || n[0].Event != runs.NotifyTurnEnded {
				t.Fatalf("the first turn's end: %+v", n)
			}
			os.WriteFile(filepath.Join(gates, "b"), nil, 0o600)
			record := filepath.Join(state, "runs", id+".json")
			eventually.True(t, 10*time.Second, "the record to keep the second turn's end, held", func() bool {
				b, _ := os.ReadFile(record)
				return strings.Contains(string(b), `"agent_held"`) && strings.Contains(string(b), `"turn-ended"`)
			})
			old := serverPID(t, state)
			if how == "kill" {
				testkit.Pin(t, old).Signal(syscall.SIGKILL)
			} else if r := agentCorral(t, env, "server", "--upgrade"); r.code != 0 {
				t.Fatalf("upgrade: %+v", r)
			}
			waitGone(t, old, "the old server")
			newServerPID(t, state, old)
			n, ok := eventually.Within(30*time.Second, func() ([]runs.Notification, bool) {
				n := sent()
				return n, len(n) == 2
			})
			if !ok || n[1].Event != runs.NotifyTurnEnded || !strings.Contains(n[1].Text, "finished its turn") {
				t.Fatalf("the held turn's end after the %s: %+v", how, n)
			}
			if gap := n[1].Time.Sub(n[0].Time); gap < window-100*time.Millisecond {
				t.Errorf("said %v after the first: the window is %v", gap, window)
			}
			// Said by the new server, not by the old one before it went.
			var by []string
			b, _ := os.ReadFile(filepath.Join(state, "events.jsonl"))
			for _, l := range strings.Split(string(b), "\n") {
				var e struct {
					Msg, RunID, InstanceID string
				}
				if json.Unmarshal([]byte(l), &struct {
					Msg        *string `json:"msg"`
					RunID      *string `json:"run_id"`
					InstanceID *string `json:"instance_id"`
				}{&e.Msg, &e.RunID, &e.InstanceID}) == nil && e.Msg == "notify" && e.RunID == id {
					by = append(by, e.InstanceID)
				}
			}
			if len(by) != 2 || by[0] == by[1] {
				t.Errorf("notify events by instance: %q, want two, the second by the new server", by)
			}
			if r := agentCorral(t, env, "shutdown"); r.code != 0 {
				t.Fatalf("shutdown: %+v", r)
			}
			if n := sent(); len(n) != 2 {
				t.Errorf("notified: %+v", n)
			}
		})
	}
}

// A key press never brings a notification, through a restart too: an agent at its
// question, told once, then the server killed (kill -9); on the new server the user
// answers with Enter and the agent, at once, draws the question again (as one asked
// again after an answer it did not take). What answers the key is not announced: the
// need is a notify-suppressed event with the reason input, and the [notify] command
// heard of the question once.
func TestAgentKeyPressNotNotifiedAfterServerKill(t *testing.T) {
	env, notified := agentEnv(t)
	state := strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
	agent := `draw() { printf '\033[H\033[2J\033]0;%s\007%b' "$1" "$2"; }
draw 'toy' 'toy agent v1\r\n\r\n> '; read -r prompt
draw '⠂ toy' "working on: $prompt\r\n(esc to interrupt)"; sleep 2
ask() { draw 'toy' 'Allow toy to run ls?\r\n  1. Yes\r\n  2. No\r\n'; }
ask; read -r answer
draw 'toy' 'redrawing'; sleep 0.1; ask; read -r again; sleep 600`
	sp := agentCorral(t, env, "spawn", "--pty", "--agent", "toy", "--name", "toy", "--shell", "--", agent)
	id := strings.TrimSpace(sp.stdout)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	endLater(t, testkit.Pin(t, keeperPID(t, state)), syscall.SIGTERM, "keeper")
	if r := agentCorral(t, env, "submit", id, "go"); r.code != 0 {
		t.Fatalf("submit: %+v", r)
	}
	if r := agentCorral(t, env, "wait", id, "--until", "waiting", "--timeout", "20s"); r.code != 0 {
		t.Fatalf("wait --until waiting: %+v", r)
	}
	lines := func() []string {
		b, _ := os.ReadFile(notified)
		if len(b) == 0 {
			return nil
		}
		return strings.Split(strings.TrimSpace(string(b)), "\n")
	}
	if l, ok := eventually.Within(10*time.Second, func() ([]string, bool) { l := lines(); return l, len(l) == 1 }); !ok {
		t.Fatalf("notified before the kill: %q", l)
	}
	old := serverPID(t, state)
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	waitGone(t, old, "the killed server")
	srv := testkit.Pin(t, newServerPID(t, state, old))
	endLater(t, srv, syscall.SIGTERM, "server")
	if r := agentCorral(t, env, "wait", id, "--until", "waiting", "--timeout", "5s"); r.code != 0 {
		t.Fatalf("wait --until waiting after the kill: %+v", r)
	}
	if r := agentCorral(t, env, "send-keys", id, "Enter"); r.code != 0 {
		t.Fatalf("send-keys: %+v", r)
	}
	suppressed := func() string {
		b, _ := os.ReadFile(filepath.Join(state, "events.jsonl"))
		for _, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, `"msg":"notify-suppressed"`) && strings.Contains(line, `"reason":"input"`) &&
				strings.Contains(line, id) {
				return line
			}
		}
		return ""
	}
	if _, ok := eventually.Within(20*time.Second, func() (string, bool) { l := suppressed(); return l, l != "" }); !ok {
		b, _ := os.ReadFile(filepath.Join(state, "events.jsonl"))
		t.Fatalf("no need suppressed for the key press; notified %q\n%s", lines(), b)
	}
	if r := agentCorral(t, env, "wait", id, "--until", "waiting", "--timeout", "20s"); r.code != 0 {
		t.Fatalf("wait --until waiting after the key: %+v", r)
	}
	if l := lines(); len(l) != 1 {
		t.Errorf("notified: %q", l)
	}
	if r := agentCorral(t, env, "shutdown"); r.code != 0 {
		t.Fatalf("shutdown: %+v", r)
	}
	waitGone(t, srv.PID, "server")
}
