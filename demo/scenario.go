package demo

import (
	_ "embed"
	"time"
)

// Run describes one run of the demo scenario. (The scenario cannot use runs.Spec:
// the runs package's tests import this package.)
type Run struct {
	Name            string
	Argv            []string
	Shell           string
	Env             []string
	PTY             bool
	Timeout         time.Duration
	NoOutputTimeout time.Duration // < 0: off
	Grace           time.Duration
	EscapePolicy    string // "" takes the default (own); the daemonizer shows the strict fail
	Expect          string // the reason this run is expected to end with, "" if it is left running
	Agent           string // the agent whose rules tell its state (AgentRules for the fake agent)
}

// AgentRules are the fake agent's rules (agent.toml), in the format of a user's rule
// file: the demo adds them to the built-in agents.
//
//go:embed agent.toml
var AgentRules []byte

// Scenario is the demo: every behaviour Corral is for, with timings chosen so every
// state shows up within a minute. The child programs are this binary's own.
func Scenario() []Run {
	child := func(mode string, args ...string) ([]string, []string) { return Child(mode, args...) }
	agentArgv, env := child("agent")
	build, _ := child("buildlog", "40s")
	silent, _ := child("silent")
	ticker, _ := child("ticker", "1s", "1000")
	tree, _ := child("tree", "2")
	stubborn, _ := child("tree", "0", "ignore-term")
	escapee, _ := child("escape-later", "6s")
	failing, _ := child("countdown", "8", "3")
	return []Run{
		{Name: "agent", Argv: agentArgv, Env: env, PTY: true, Agent: "fake-agent"},
		{Name: "build", Argv: build, Env: env, NoOutputTimeout: -1, Expect: "exit"},
		{Name: "silent-job", Argv: silent, Env: env, NoOutputTimeout: 10 * time.Second, Expect: "no-output-timeout"},
		{Name: "deadline", Argv: ticker, Env: env, Timeout: 20 * time.Second, NoOutputTimeout: -1, Expect: "overall-timeout"},
		{Name: "wrapper", Shell: shellQuote(tree) + "; echo wrapper done", Env: env, PTY: true, Expect: "manual-cancel"},
		{Name: "stubborn", Argv: stubborn, Env: env, Timeout: 15 * time.Second, NoOutputTimeout: -1,
			Grace: 3 * time.Second, Expect: "overall-timeout"},
		{Name: "daemonizer", Argv: escapee, Env: env, EscapePolicy: "fail", Expect: "ownership-escape"},
		{Name: "failing", Argv: failing, Env: env, Expect: "exit"},
	}
}

// shellQuote joins argv into a POSIX shell line, each word single-quoted.
func shellQuote(argv []string) string {
	var b []byte
	for i, a := range argv {
		if i > 0 {
			b = append(b, ' ')
		}
		b = append(b, '\'')
		for _, c := range []byte(a) {
			if c == '\'' {
				b = append(b, `'\''`...)
			} else {
				b = append(b, c)
			}
		}
		b = append(b, '\'')
	}
	return string(b)
}
