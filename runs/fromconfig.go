package runs

import (
	"fmt"
	"slices"
	"strings"

	"corral/config"
	"corral/runs/agentstate"
)

// SpecFromEntry turns a [[run]] of corral.toml (or a Procfile line) into a Spec, with
// the file's [defaults] (already applied to d) filling what the entry leaves out.
func SpecFromEntry(e config.RunEntry, d config.Defaults) (Spec, error) {
	s := Spec{Name: e.Name, Shell: e.Cmd, Argv: e.Argv, PTY: e.PTY, Dir: e.Cwd,
		Cols: e.Cols, Rows: e.Rows, Grace: e.Grace, Escape: EscapePolicy(e.EscapePolicy),
		Timeout: d.Timeout, NoOutputTimeout: d.NoOutputTimeout, Agent: e.Agent, Restore: e.Restore}
	if s.Escape == "" {
		s.Escape = EscapePolicy(d.EscapePolicy)
	}
	if e.Worktree {
		s.Worktree = &WorktreeSpec{Branch: e.Branch, Base: e.Base}
	}
	for _, d := range e.DependsOn {
		s.DependsOn = append(s.DependsOn, Dependency{Name: d.Name, Condition: Condition(d.Condition)})
	}
	s.OnDependencyLost = e.OnDependencyLost
	if e.TimeoutSet {
		s.Timeout = e.Timeout
	}
	if e.NoOutputSet {
		s.NoOutputTimeout = e.NoOutputTimeout
		if e.NoOutputTimeout == 0 {
			s.NoOutputTimeout = -1 // "0" in the file turns it off
		}
	}
	keys := make([]string, 0, len(e.Env))
	for k := range e.Env {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		s.Env = append(s.Env, k+"="+e.Env[k])
	}
	s.Restart, s.Ready, s.Alive = restartFromEntry(e), e.Ready, e.Alive
	if e.StopSignal != "" {
		sig, err := ParseSignal(e.StopSignal)
		if err != nil {
			return s, fmt.Errorf("run %q (line %d): stop_signal: %w", e.Name, max(e.StopSignalLine, e.Line), err)
		}
		s.StopSignal = sig
	}
	return s, s.validate()
}

// CheckAgents finds what is wrong with the agents a config's runs name and with the
// agent rule files: a run that names an agent no rules know (with its line), a rule
// file with a mistake (with its file and line; Corral skips it). For corral check.
func CheckAgents(path string, entries []config.RunEntry, set *agentstate.Set, ruleErrs []error) []error {
	errs := slices.Clone(ruleErrs)
	for _, e := range entries {
		if e.Agent != "" && e.Agent != AgentNone && set.Named(e.Agent) == nil {
			errs = append(errs, &config.Error{Path: path, Line: max(e.AgentLine, e.Line), In: fmt.Sprintf("run %q", e.Name),
				Key: "agent", Msg: fmt.Sprintf("no agent %q (known: %s, or none)", e.Agent, strings.Join(set.Names(), ", "))})
		}
	}
	return errs
}

// restartFromEntry is the entry's restart policy with the default pacing where it
// says nothing; nil for a run never restarted.
func restartFromEntry(e config.RunEntry) *RestartSpec {
	if e.Restart == "" || e.Restart == config.RestartNo {
		return nil
	}
	rs := DefaultRestart(RestartPolicy(e.Restart))
	if e.BackoffSet {
		rs.Backoff = e.Backoff
		if e.BackoffMax == 0 && rs.BackoffMax < rs.Backoff {
			rs.BackoffMax = rs.Backoff
		}
	}
	if e.BackoffMax > 0 {
		rs.BackoffMax = e.BackoffMax
	}
	if e.MaxRestartsSet {
		rs.MaxRestarts = e.MaxRestarts
	}
	if e.RestartWindow > 0 {
		rs.Window = e.RestartWindow
	}
	return &rs
}
