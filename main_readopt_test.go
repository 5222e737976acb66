package main

import (
	"context"
	"encoding/json"
	"fmt"
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

// A submit waits for the run to be ready whatever the run is, and an agent's state
// is the same in every interface, through a server's kill or upgrade, from the
// moment the new server answers.

// slowStarter prints a banner in pieces over about 1.6 s, then (as agents do) throws
// away what was typed while it started, shows its prompt and writes the first line
// it reads to file. Its prompt matches none of the toy's rules: run as the toy, its
// state stays unknown.
func slowStarter(file string) string {
	return `printf 'starting'; for i in 1 2 3 4; do sleep 0.4; printf .; done
while read -t 0.05 -r junk; do :; done
printf '\r\nready: '; read -r line; printf '%s\n' "$line" > ` + file + `; sleep 600`
}

// agentSession is agentEnv with its server's and keeper's ends awaited when the test
// ends (shutdown, then both gone). The first spawn starts them: call after it.
func agentSession(t *testing.T, env []string) (state string) {
	t.Helper()
	state = strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
	keeper := testkit.Pin(t, keeperPID(t, state))
	t.Cleanup(func() {
		srv, _ := os.ReadFile(filepath.Join(state, "server.lock"))
		agentCorral(t, env, "shutdown")
		if pid := atoiOr(strings.TrimSpace(string(srv))); pid > 1 {
			waitGone(t, pid, "server")
		}
		if keeper.Signal(0) == nil {
			waitGone(t, keeper.PID, "keeper") // it follows once it keeps nothing
		}
	})
	return state
}

func atoiOr(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}

// submit right after spawn to a run that is no known agent, and to an agent whose
// state is unknown, waits until the start-up output has gone quiet and delivers the
// text (typed at once, the program would have thrown it away); it says what made the
// run ready.
func TestSubmitWaitsForQuietOutput(t *testing.T) {
	t.Parallel()
	env, _ := agentEnv(t)
	dir := t.TempDir()
	for i, c := range []struct {
		name  string
		spawn []string
		flags []string
		ready string
	}{
		{"plain", []string{"--pty", "--name", "plain", "--shell", "--"}, nil,
			"ready: output quiet 3s (no known agent, terminal in line mode)"},
		{"unknown", []string{"--pty", "--agent", "toy", "--name", "unknown", "--shell", "--"}, []string{"--ready-timeout", "20s"},
			"ready: output quiet 3s (agent state unknown, terminal in line mode)"},
	} {
		got := filepath.Join(dir, c.name)
		sp := agentCorral(t, env, append(append([]string{"spawn"}, c.spawn...), slowStarter(got))...)
		id := strings.TrimSpace(sp.stdout)
		if sp.code != 0 {
			t.Fatalf("%s: spawn: %+v", c.name, sp)
		}
		if i == 0 {
			agentSession(t, env)
		}
		start := time.Now()
		sub := agentCorral(t, env, append(append([]string{"submit"}, c.flags...), id, "hello", c.name)...)
		took := time.Since(start)
		line, ok := eventually.Within(10*time.Second, func() (string, bool) {
			b, _ := os.ReadFile(got) // the shell creates it before printf writes the line
			return string(b), strings.HasSuffix(string(b), "\n")
		})
		if !ok || line != "hello "+c.name+"\n" {
			t.Fatalf("%s read %q (submit: %+v)", c.name, line, sub)
		}
		if sub.code != 0 || !strings.HasPrefix(sub.stdout, c.ready) {
			t.Errorf("%s: submit right after spawn: %+v", c.name, sub)
		}
		if took < 2*time.Second {
			t.Errorf("%s: submit returned after %s: before the banner (1.6 s) and a quiet second", c.name, took)
		}
		if info := agentCorral(t, env, "info", id); !strings.Contains(info.stdout, `"agent_state": "unknown"`) {
			t.Errorf("%s: the state should have stayed unknown: %s", c.name, info.stdout)
		}
	}
}

// A run that never goes quiet is never typed into: submit --ready-timeout gives up
// with 124 and says what it waited for.
func TestSubmitReadyTimeoutNeverQuiet(t *testing.T) {
	t.Parallel()
	env, _ := agentEnv(t)
	got := filepath.Join(t.TempDir(), "got")
	sp := agentCorral(t, env, "spawn", "--pty", "--name", "busy", "--shell", "--",
		`(while :; do echo tick; sleep 0.1; done) & read -r line; printf '%s\n' "$line" > `+got+`; sleep 600`)
	id := strings.TrimSpace(sp.stdout)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	agentSession(t, env)
	r := agentCorral(t, env, "submit", "--ready-timeout", "2s", id, "never")
	if r.code != 124 || !strings.Contains(r.stderr, "not ready after 2s: waited for its output to be quiet for 3s (no known agent, terminal in line mode)") {
		t.Errorf("submit to a run that never goes quiet: %+v", r)
	}
	if _, err := os.Stat(got); err == nil {
		t.Error("the text was typed into a run that was not ready")
	}
	if r := agentCorral(t, env, "submit", "--ready-timeout", "0", id, "never"); r.code != 2 {
		t.Errorf("--ready-timeout 0: %+v", r)
	}
}

// question is a toy agent already at its permission question, which prints nothing
// more.
const question = `printf '\033[H\033[2J\033]0;toy\007Allow toy to run ls?\r\n  1. Yes\r\n  2. No\r\n'; sleep 600`

// agentStates is what ls, poll, info and explain say of run id's agent.
func agentStates(t *testing.T, env []string, id string) map[string]string {
	t.Helper()
	out := map[string]string{}
	var ls struct {
		Runs []struct {
			ID         string `json:"run_id"`
			AgentState string `json:"agent_state"`
		} `json:"runs"`
	}
	r := agentCorral(t, env, "ls", "--json")
	if err := json.Unmarshal([]byte(r.stdout), &ls); err != nil {
		t.Fatalf("ls --json: %v %+v", err, r)
	}
	for _, x := range ls.Runs {
		if x.ID == id {
			out["ls"] = x.AgentState
		}
	}
	for _, verb := range []string{"poll", "info"} {
		var i struct {
			AgentState string `json:"agent_state"`
			Run        struct {
				AgentState string `json:"agent_state"`
			} `json:"run"`
		}
		r := agentCorral(t, env, verb, "--json", id)
		json.Unmarshal([]byte(r.stdout), &i)
		out[verb] = i.AgentState + i.Run.AgentState
	}
	ex := agentCorral(t, env, "explain", id).stdout
	st, _, _ := strings.Cut(strings.TrimPrefix(ex, id+" "), " since")
	_, out["explain"], _ = strings.Cut(strings.SplitN(st, ",", 2)[0], ": ")
	return out
}

// allSay reports whether every interface says want.
func allSay(states map[string]string, want string) bool {
	for _, verb := range []string{"ls", "poll", "info", "explain"} {
		if states[verb] != want {
			return false
		}
	}
	return true
}

// kill -9 of the server while the toy agent sits at its permission question (it
// prints nothing after it): the keeper's new server judges the kept screen at once,
// and ls, poll, info and explain say waiting from its first answer.
func TestAgentStateAfterServerKill(t *testing.T) {
	t.Parallel()
	env, _ := agentEnv(t)
	sp := agentCorral(t, env, "spawn", "--pty", "--agent", "toy", "--name", "toy", "--shell", "--", toyAgent)
	id := strings.TrimSpace(sp.stdout)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	state := agentSession(t, env)
	if r := agentCorral(t, env, "submit", id, "fix", "it"); r.code != 0 {
		t.Fatalf("submit: %+v", r)
	}
	if r := agentCorral(t, env, "wait", id, "--until", "waiting", "--timeout", "20s"); r.code != 0 {
		t.Fatalf("wait --until waiting: %+v", r)
	}
	if s := agentStates(t, env, id); !allSay(s, "waiting") {
		t.Fatalf("before the kill: %v", s)
	}
	old := serverPID(t, state)
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	waitGone(t, old, "the killed server")
	newServerPID(t, state, old)
	up := time.Now()
	s := agentStates(t, env, id) // the first answers: no waiting for output that never comes
	if !allSay(s, "waiting") {
		t.Errorf("after the kill: %v, want waiting everywhere", s)
	}
	t.Logf("the new server's first answers (%s): %v", time.Since(up).Round(time.Millisecond), s)
	if r := agentCorral(t, env, "submit", "--ready-timeout", "200ms", id, "x"); r.code != 124 ||
		!strings.Contains(r.stderr, "its agent to be idle: it is waiting (rule question)") {
		t.Errorf("submit to the agent at its question: %+v", r)
	}
}

// corral server --upgrade likewise: the agent at its question is waiting in every
// interface from the new server's first answer.
func TestAgentStateAfterUpgrade(t *testing.T) {
	t.Parallel()
	env, _ := agentEnv(t)
	sp := agentCorral(t, env, "spawn", "--pty", "--agent", "toy", "--name", "toy", "--shell", "--", question)
	id := strings.TrimSpace(sp.stdout)
	if sp.code != 0 {
		t.Fatalf("spawn: %+v", sp)
	}
	state := agentSession(t, env)
	eventually.True(t, 10*time.Second, "the question to be judged", func() bool {
		return allSay(agentStates(t, env, id), "waiting")
	})
	old := serverPID(t, state)
	if r := agentCorral(t, env, "server", "--upgrade"); r.code != 0 {
		t.Fatalf("upgrade: %+v", r)
	}
	newServerPID(t, state, old)
	if s := agentStates(t, env, id); !allSay(s, "waiting") {
		t.Errorf("after the upgrade: %v, want waiting everywhere", s)
	}
}

// BenchmarkReadoptAgentStates: a server with readoptAgents toy agents, each at its
// permission question and printing nothing more, is SIGKILLed, b.N times. Reported:
// from the kill to corral ls and corral info saying waiting for every agent
// (kill-to-states-ms, the keeper's restart included), from the new server's first
// answer to the same (answer-to-states-ms, the 21 corral commands that check
// included), the share of kills after which the first check was already right, and the
// new server's own time to take the runs back and judge them (readopt-ms, its log).
func BenchmarkReadoptAgentStates(b *testing.B) {
	const readoptAgents = 20
	env, _ := agentEnv(b)
	state := strings.TrimPrefix(env[0], "CORRAL_STATE_DIR=")
	ids := make([]string, readoptAgents)
	for i := range ids {
		sp := agentCorral(b, env, "spawn", "--pty", "--agent", "toy", "--name", fmt.Sprintf("a%02d", i), "--shell", "--", question)
		if ids[i] = strings.TrimSpace(sp.stdout); sp.code != 0 {
			b.Fatalf("spawn: %+v", sp)
		}
	}
	keeper := keeperPID(b, state)
	b.Cleanup(func() {
		agentCorral(b, env, "shutdown")
		waitGone(b, keeper, "keeper")
	})
	// allWaiting: ls (the registry) and info (the server) say waiting for every agent.
	allWaiting := func() bool {
		var ls struct {
			Runs []struct {
				AgentState string `json:"agent_state"`
			} `json:"runs"`
		}
		json.Unmarshal([]byte(agentCorral(b, env, "ls", "--json").stdout), &ls)
		n := 0
		for _, r := range ls.Runs {
			if r.AgentState == "waiting" {
				n++
			}
		}
		if n != readoptAgents {
			return false
		}
		for _, id := range ids {
			if !strings.Contains(agentCorral(b, env, "info", id).stdout, `"agent_state": "waiting"`) {
				return false
			}
		}
		return true
	}
	eventually.True(b, 20*time.Second, "every agent waiting", allWaiting)
	srv := serverPID(b, state)
	var killToStates, answerToStates time.Duration
	rightFirst := 0
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		time.Sleep(keeperSteady) // a server that dies young is restarted after a backoff
		b.StartTimer()
		kill := time.Now()
		testkit.Pin(b, srv).Signal(syscall.SIGKILL)
		srv = newServerPID(b, state, srv)
		answered := time.Now()
		first := allWaiting()
		if !first {
			eventually.True(b, 70*time.Second, "every agent waiting after the kill", allWaiting)
		} else {
			rightFirst++
		}
		done := time.Now()
		killToStates += done.Sub(kill)
		answerToStates += done.Sub(answered)
	}
	b.StopTimer()
	b.ReportMetric(float64(killToStates.Microseconds())/1000/float64(b.N), "kill-to-states-ms")
	b.ReportMetric(float64(answerToStates.Microseconds())/1000/float64(b.N), "answer-to-states-ms")
	b.ReportMetric(float64(rightFirst)/float64(b.N), "right-at-first-answer")
	if took, err := lastReadopt(state); err == nil {
		b.ReportMetric(float64(took.Microseconds())/1000, "readopt-ms")
	} else {
		b.Error(err)
	}
}

// An attached UI that reconnects after a kill -9 of its server shows the agent at
// its question as waiting, the new server's word, as soon as it has reconnected.
func TestUIAgentStateAfterReconnect(t *testing.T) {
	env, _ := agentEnv(t)
	if r := agentCorral(t, env, "spawn", "--pty", "--agent", "toy", "--name", "toy", "--shell", "--", question); r.code != 0 {
		t.Fatalf("spawn: %+v", r)
	}
	state := agentSession(t, env)
	x := startTmux(t, 120, 40, "env "+strings.Join(env, " ")+" "+corralBin+" attach")
	x.waitFor(`toy\s+pty\s+! waiting`, 20*time.Second)
	old := serverPID(t, state)
	testkit.Pin(t, old).Signal(syscall.SIGKILL)
	waitGone(t, old, "the killed server")
	next := newServerPID(t, state, old)
	x.waitFor(fmt.Sprintf(`reconnected to server pid %d`, next), 20*time.Second)
	back := time.Now()
	// The run's row before the resync is the lost server's: its events from the log,
	// fetched with the runs, say the resync was taken.
	x.waitFor(`earlier · resume`, 20*time.Second)
	x.waitFor(`toy\s+pty\s+! waiting`, time.Second)
	t.Logf("waiting shown %s after the reconnect was", time.Since(back).Round(time.Millisecond))
}

// The real agent CLIs at their permission question (they print nothing more while
// they wait, unless animating): after a kill -9 of the server, ls, poll, info and
// explain say waiting from the new server's first answers, and approving it goes on
// to idle. Skipped for a CLI that is not installed.
func TestRealAgentStateAfterServerKill(t *testing.T) {
	for _, a := range agenttest.Agents {
		t.Run(a.Name, func(t *testing.T) {
			_, launch, _ := realAgentLaunch(t, a, "corral-e2e-readopt-"+a.Name+"-")
			env, _ := agentEnv(t)
			corralAt := launchCorral(t, launch, env)
			sp := corralAt(append([]string{"spawn", "--pty", "--agent", a.Name, "--name", a.Name, "--"}, launch.Argv...)...)
			id := strings.TrimSpace(sp.stdout)
			if sp.code != 0 {
				t.Fatalf("spawn: %+v", sp)
			}
			state := agentSession(t, env)
			if r := corralAt("submit", id, "Please check that the workspace is writable."); r.code != 0 {
				t.Fatalf("submit: %+v\n%s", r, corralAt("screen", id).stdout)
			}
			if r := corralAt("wait", id, "--until", "waiting", "--timeout", "90s"); r.code != 0 {
				t.Fatalf("wait --until waiting: %+v\n%s", r, corralAt("explain", id).stdout)
			}
			old := serverPID(t, state)
			testkit.Pin(t, old).Signal(syscall.SIGKILL)
			waitGone(t, old, "the killed server")
			newServerPID(t, state, old)
			up := time.Now()
			s := agentStates(t, env, id)
			if !allSay(s, "waiting") {
				t.Errorf("after the kill: %v, want waiting everywhere\n%s", s, corralAt("explain", id).stdout)
			}
			t.Logf("the new server's first answers (%s): %v", time.Since(up).Round(time.Millisecond), s)
			corralAt("send-keys", id, approveKey[a.Name])
			if r := corralAt("wait", id, "--until", "idle", "--timeout", "90s"); r.code != 0 {
				t.Fatalf("wait --until idle after the kill: %+v\n%s", r, corralAt("explain", id).stdout)
			}
		})
	}
}

// The real agent CLIs run as no known agent (--agent none: as when started through a
// wrapper Corral does not see through): a submit right after spawn waits until their
// start-up output has gone quiet, and the prompt reaches the model. Skipped for a CLI
// that is not installed.
func TestRealAgentSubmitWithoutState(t *testing.T) {
	for _, a := range agenttest.Agents {
		t.Run(a.Name, func(t *testing.T) {
			srv, launch, _ := realAgentLaunch(t, a, "corral-e2e-quiet-"+a.Name+"-")
			env, _ := agentEnv(t)
			corralAt := launchCorral(t, launch, env)
			sp := corralAt(append([]string{"spawn", "--pty", "--agent", "none", "--name", a.Name, "--"}, launch.Argv...)...)
			id := strings.TrimSpace(sp.stdout)
			if sp.code != 0 {
				t.Fatalf("spawn: %+v", sp)
			}
			agentSession(t, env)
			r := corralAt("submit", id, "Please check that the workspace is writable.")
			if r.code != 0 || !strings.HasPrefix(r.stdout, "ready: output quiet 1s (no known agent)") {
				t.Errorf("submit right after spawn: %+v", r)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			if _, err := srv.Await(ctx, agenttest.EventTurn); err != nil {
				t.Errorf("the prompt did not reach the model: %v\n%s", err, corralAt("screen", id).stdout)
			}
		})
	}
}
