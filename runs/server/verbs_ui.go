package server

import (
	"context"
	"encoding/json"

	"corral/ptyhost"
	"corral/runs"
)

// The verbs an attached UI needs beyond the control API, one per method of its core.

// WireInfo is a run's Info as it crosses the socket: Info leaves its live watchdog
// state out of JSON (records do not keep it), a UI shows it.
type WireInfo struct {
	runs.Info
	Watchdog WireWatchdog `json:"watchdog"`
}

func wireInfos(in []runs.Info) []WireInfo {
	out := make([]WireInfo, len(in))
	for i, x := range in {
		out[i] = WireInfo{Info: x, Watchdog: wireWatchdog(x.Watchdog)}
	}
	return out
}

// Infos turns wire infos back into Infos with their watchdog state.
func Infos(in []WireInfo) []runs.Info {
	out := make([]runs.Info, len(in))
	for i, x := range in {
		out[i] = x.Info
		out[i].Watchdog = x.Watchdog.state()
	}
	return out
}

type (
	StopArgs struct {
		ID     string      `json:"id"`
		Reason runs.Reason `json:"reason"`
	}
	ResizeArgs struct {
		ID   string `json:"id"`
		Cols uint16 `json:"cols"`
		Rows uint16 `json:"rows"`
	}
	TreesArgs struct {
		IDs []string `json:"ids"`
	}
	SnapshotReply struct {
		Runs []WireInfo `json:"runs"`
	}
	OutputReply struct {
		Output runs.Output `json:"output"`
	}
)

func init() {
	verbs["snapshot"] = func(s *Server, _ context.Context, _ json.RawMessage) (any, *Error) {
		return SnapshotReply{Runs: wireInfos(s.core.Snapshot())}, nil
	}
	verbs["stop"] = withRef(func(s *Server, id string, a StopArgs) error { return s.core.Stop(id, a.Reason) })
	verbs["pause"] = withRef(func(s *Server, id string, _ RunRef) error { return s.core.Pause(id) })
	verbs["resume"] = withRef(func(s *Server, id string, _ RunRef) error { return s.core.Resume(id) })
	verbs["resize"] = withRef(func(s *Server, id string, a ResizeArgs) error { return s.core.Resize(id, a.Cols, a.Rows) })
	verbs["output"] = func(s *Server, _ context.Context, raw json.RawMessage) (any, *Error) {
		var a RunRef
		if e := decode(raw, &a); e != nil {
			return nil, e
		}
		out, err := s.core.Log(a.ID)
		if err != nil {
			return nil, errorf(codeOf(err), "%v", err)
		}
		return OutputReply{Output: out}, nil
	}
	verbs["reconcile"] = func(s *Server, ctx context.Context, _ json.RawMessage) (any, *Error) {
		ds, err := s.core.Reconcile(ctx)
		if err != nil {
			return nil, errorf(CodeFailed, "%v", err)
		}
		return ds, nil
	}
	verbs["trees"] = func(s *Server, _ context.Context, raw json.RawMessage) (any, *Error) {
		var a TreesArgs
		if e := decode(raw, &a); e != nil {
			return nil, e
		}
		t, err := s.core.Trees(a.IDs...)
		if err != nil {
			return nil, errorf(CodeFailed, "%v", err)
		}
		return wireTrees(t), nil
	}
	verbs["metrics"] = func(s *Server, _ context.Context, _ json.RawMessage) (any, *Error) {
		return s.core.Metrics(), nil
	}
}

func (a StopArgs) ref() string   { return a.ID }
func (a ResizeArgs) ref() string { return a.ID }

// ItemsArgs are keys already parsed (the UI's send-keys prompt parses them itself).
type ItemsArgs struct {
	ID    string         `json:"id"`
	Items []ptyhost.Item `json:"items"`
}

func (a ItemsArgs) ref() string { return a.ID }

func init() {
	verbs["send-items"] = withRef(func(s *Server, id string, a ItemsArgs) error { return s.core.SendKeys(id, a.Items) })
}
