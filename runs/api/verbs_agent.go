package api

import (
	"context"
	"encoding/json"
	"time"

	"corral/runs"
	"corral/runs/agentstate"
)

// The operations of agent state (DESIGN §16): a run's screen as text, who looks at
// it, what its agent's hooks say, and why its state is what it is.
var (
	Screen  = declare("screen", LaneControl, screenOf)
	Focus   = declare("focus", LaneInput, onRun(func(c Core, id string, a FocusArgs) error { return c.Focus(id, a.Viewer, a.Focused) }))
	Hook    = declare("hook", LaneControl, hook)
	Explain = declare("explain", LaneControl, explain)
)

type (
	ScreenArgs struct {
		ID      string `json:"id"`
		Escapes bool   `json:"escapes"` // keep attributes as SGR (capture-pane -e)
		History bool   `json:"history"` // the lines that scrolled off first (capture-pane -S -)
	}
	// FocusArgs: Viewer (an attached UI, by its subscription token) looks at the run
	// now, or no longer.
	FocusArgs struct {
		ID      string `json:"id"`
		Viewer  string `json:"viewer"`
		Focused bool   `json:"focused"`
	}
	// HookArgs carry an agent hook's JSON as the agent gave it.
	HookArgs struct {
		ID      string          `json:"id"`
		Payload json.RawMessage `json:"payload"`
	}
	HookReply struct {
		ID    string           `json:"id"`
		State agentstate.State `json:"state"` // what the hook said (unknown: nothing)
		Event string           `json:"event"`
	}
	ExplainReply struct {
		Run         RunInfo                `json:"run"`
		Explanation agentstate.Explanation `json:"explanation"`
	}
	// SubmitReply says how a submit went: when it waited, how long, what made the run
	// ready ("agent idle", or its output quiet) and what showed the submit took.
	SubmitReply struct {
		ID       string `json:"id"`
		WaitedMS int64  `json:"waited_ms"`
		Ready    string `json:"ready,omitempty"`
		Resent   bool   `json:"resent"`
		Took     string `json:"took,omitempty"`
	}
)

func (a FocusArgs) ref() string { return a.ID }

func screenOf(_ context.Context, c Core, a ScreenArgs) (runs.Capture, error) {
	id, err := Resolve(c, a.ID)
	if err != nil {
		return runs.Capture{}, err
	}
	return c.Capture(id, a.Escapes, a.History)
}

func hook(_ context.Context, c Core, a HookArgs) (HookReply, error) {
	id, err := Resolve(c, a.ID)
	if err != nil {
		return HookReply{}, err
	}
	rep, err := agentstate.ParseHook(a.Payload)
	if err != nil {
		return HookReply{}, errorf(CodeBadRequest, "%v", err)
	}
	return HookReply{ID: id, State: rep.State, Event: rep.Event}, c.Hook(id, rep)
}

func explain(_ context.Context, c Core, a RunRef) (ExplainReply, error) {
	id, err := Resolve(c, a.ID)
	if err != nil {
		return ExplainReply{}, err
	}
	e, err := c.Explain(id)
	if err != nil {
		return ExplainReply{}, err
	}
	info, err := c.Info(id)
	return ExplainReply{Run: RunInfo{info}, Explanation: e}, err
}

// SubmitReadyDefault bounds a submit's wait for the run to be ready when no ready
// timeout was given: longer than any agent seen starting (a first start that logs in
// or updates itself takes tens of seconds), short enough that a script is never stuck.
const SubmitReadyDefault = 2 * time.Minute

// submit pastes text and presses Enter; with a ready timeout, or ReadyDefault, it
// first waits for the run to be ready and checks that the submit took
// (runs.SubmitReady).
func submit(ctx context.Context, c Core, a TextArgs) (SubmitReply, error) {
	id, err := Resolve(c, a.ID)
	if err != nil {
		return SubmitReply{}, err
	}
	ready := time.Duration(a.ReadyTimeoutMS) * time.Millisecond
	if ready <= 0 {
		if !a.ReadyDefault {
			return SubmitReply{ID: id}, c.Submit(id, a.Text)
		}
		ready = SubmitReadyDefault
	}
	res, err := c.SubmitReady(ctx, id, a.Text, ready)
	rep := SubmitReply{ID: id, WaitedMS: runs.Millis(res.Waited), Ready: res.Ready, Resent: res.Resent, Took: res.Took}
	if err != nil {
		code := codeOfSubmit(err)
		if code == CodeTimeout && a.ReadyTimeoutMS <= 0 { // the bound nobody asked for is no timeout of theirs
			return rep, errorf(CodeFailed, "%v (the default bound; --ready-timeout sets one)", err)
		}
		return rep, errorf(code, "%v", err)
	}
	return rep, nil
}

// waitAgent is wait --until: the run's agent reaches one of the states, or the run
// ends first (Reached false, with its report).
func waitAgent(ctx context.Context, c Core, id string, a WaitArgs) (WaitReply, error) {
	info, reached, err := c.WaitAgent(ctx, id, a.Until)
	if err != nil {
		return WaitReply{}, err
	}
	rep := WaitReply{Run: info, Reached: reached}
	if info.Ended() {
		esc, _ := c.Escapees(id)
		tail, _ := c.Tail(id)
		rep.Report = runs.NewReport(info, esc, tail)
	}
	return rep, nil
}
