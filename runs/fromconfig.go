package runs

import (
	"fmt"
	"slices"

	"corral/config"
)

// SpecFromEntry turns a [[run]] of corral.toml (or a Procfile line) into a Spec, with
// the file's [defaults] (already applied to d) filling what the entry leaves out.
func SpecFromEntry(e config.RunEntry, d config.Defaults) (Spec, error) {
	s := Spec{Name: e.Name, Shell: e.Cmd, Argv: e.Argv, PTY: e.PTY, Dir: e.Cwd,
		Cols: e.Cols, Rows: e.Rows, Grace: e.Grace, Escape: EscapePolicy(e.EscapePolicy),
		Timeout: d.Timeout, NoOutputTimeout: d.NoOutputTimeout}
	if s.Escape == "" {
		s.Escape = EscapePolicy(d.EscapePolicy)
	}
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
	if e.StopSignal != "" {
		sig, err := ParseSignal(e.StopSignal)
		if err != nil {
			return s, fmt.Errorf("run %q (line %d): stop_signal: %w", e.Name, max(e.StopSignalLine, e.Line), err)
		}
		s.StopSignal = sig
	}
	return s, s.validate()
}
