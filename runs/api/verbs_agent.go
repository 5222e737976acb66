package api

import (
	"context"
	"encoding/json"
	"time"

	"corral/runs"
	"corral/runs/agentstate"
)

// The operations of agent state (ARCHITECTURE.md, "An agent's state"): a run's screen
// as text, who looks at it, what its agent's hooks say, and why its state is what it
// is.
var (
	Screen = declare("screen", LaneMain, screenOf)
	Focus  = declare("focus", LaneInput, onRun(func(c Core, id string, a FocusArgs) error { return c.Focus(id, a.Viewer, a.Focused) })).
		viewing(func(a *FocusArgs) *string { return &a.Viewer })
	Hook    = declare("hook", LaneMain, hook)
	Explain = declare("explain", LaneMain, explain).
		returning(func(r *ExplainReply) []*runs.Info { return []*runs.Info{&r.Run.Info} })
)

type (
	ScreenArgs struct {
		ID      string `json:"id"`
		Escapes bool   `json:"escapes"` // keep attributes as SGR (capture-pane -e)
		History bool   `json:"history"` // the lines that scrolled off first (capture-pane -S -)
		// From is the first line of the page asked for, of a capture too large for
		// one reply (runs.Capture.TotalLines); 0 for the first.
		From int `json:"from,omitempty"`
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
		// Secret is the run secret in the hook's environment (CORRAL_RUN_SECRET): the
		// run learns a conversation id only from a hook whose secret is its own.
		Secret string `json:"secret,omitempty"`
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
	cp, err := c.Capture(id, a.Escapes, a.History)
	if err != nil {
		return cp, err
	}
	return capturePage(cp, a.From, screenPage)
}

// screenPage bounds the JSON of one screen reply's lines, well within MaxMessage: a
// run's history (10,000 lines of up to 1,000 columns, with their colours) can be
// many times that.
const screenPage = MaxMessage / 2

// capturePage is the part of cp from line from whose lines' JSON fits in size
// bytes (at least one line); cp itself when it all fits.
func capturePage(cp runs.Capture, from, size int) (runs.Capture, error) {
	total := len(cp.Lines)
	if from < 0 {
		return runs.Capture{}, errorf(CodeBadRequest, "screen from line %d: give a line from 0", from)
	}
	from = min(from, total) // past the end (the capture shrank): an empty page
	end, used := from, 0
	for end < total {
		n := jsonSize(cp.Lines[end])
		if end > from && used+n > size {
			break
		}
		used += n
		end++
	}
	if from == 0 && end == total {
		return cp, nil
	}
	cp.Lines, cp.From, cp.TotalLines = cp.Lines[from:end], from, total
	return cp, nil
}

// jsonSize is what s takes in a JSON array of strings, at most: its quotes and
// comma, and six bytes for each byte encoding/json escapes as \u00XX.
func jsonSize(s string) int {
	n := len(s) + 3
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			n += 5
		}
	}
	return n
}

// ScreenAll is the Screen operation's whole capture, read page by page when it is
// too large for one reply. A run that writes meanwhile may shift its history
// between two pages; the capture is then as of the last page's total.
func ScreenAll(ctx context.Context, c Caller, a ScreenArgs) (runs.Capture, error) {
	cp, err := Screen.Call(ctx, c, a)
	if err != nil || cp.TotalLines == 0 {
		return cp, err
	}
	for cp.From+len(cp.Lines) < cp.TotalLines {
		a.From = cp.From + len(cp.Lines)
		next, err := Screen.Call(ctx, c, a)
		if err != nil {
			return runs.Capture{}, err
		}
		if next.TotalLines == 0 || next.From != a.From || len(next.Lines) == 0 {
			break // the capture shrank under us: what came is what there is
		}
		cp.Lines = append(cp.Lines, next.Lines...)
		cp.TotalLines = next.TotalLines
	}
	cp.From, cp.TotalLines = 0, 0
	return cp, nil
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
	rep.Secret = a.Secret
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
	return waitReply(c, id, info, reached, err)
}

// waitReply is the answer of a wait that returned the run as info: whether it
// reached what was waited for, and the report of a run that ended first.
func waitReply(c Core, id string, info runs.Info, reached bool, err error) (WaitReply, error) {
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
