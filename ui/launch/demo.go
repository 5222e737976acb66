package launch

import (
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/config"
	"corral/demo"
	"corral/runs"
	"corral/runs/agentstate"
)

// errAutoplayCut: the UI ended (the operator quit) before the autoplay finished.
var errAutoplayCut = errors.New("the UI ended before the autoplay did")

// Demo opens the UI on the built-in scenario in the state dir dir. With autoplay the
// UI drives itself (autoplayScenario) and quits; played is the autoplay's own verdict
// (nil: every run ended as the scenario expects), uiErr the UI's.
func Demo(dir string, autoplay bool, warn func(string)) (uiErr, played error) {
	fake, err := agentstate.ParseRules("demo/agent.toml", demo.AgentRules)
	if err != nil {
		return err, nil // the demo's own file: a test parses it
	}
	rs := Runs{Start: scenario(), Notify: config.DefaultNotify(), Agents: []*agentstate.Agent{fake}}
	if !autoplay {
		return Local(config.Default(), dir, rs, nil, warn), nil
	}
	expect := map[string]string{}
	for _, r := range demo.Scenario() {
		if r.Expect != "" {
			expect[r.Name] = r.Expect
		}
	}
	done := make(chan error, 1)
	drive := func(p *tea.Program, sup *runs.Supervisor) {
		done <- autoplayScenario(p.Send, sup, expect)
	}
	uiErr = Local(config.Default(), dir, rs, drive, warn)
	select {
	case played = <-done:
	case <-time.After(5 * time.Second):
		played = errAutoplayCut
	}
	return uiErr, played
}

// scenario is the demo's runs as specs.
func scenario() []runs.Spec {
	var specs []runs.Spec
	for _, r := range demo.Scenario() {
		specs = append(specs, runs.Spec{Name: r.Name, Argv: r.Argv, Shell: r.Shell, Env: r.Env, PTY: r.PTY,
			Timeout: r.Timeout, NoOutputTimeout: r.NoOutputTimeout, Grace: r.Grace, Escape: runs.EscapePolicy(r.EscapePolicy),
			Agent: r.Agent})
	}
	return specs
}
