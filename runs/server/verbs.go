package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"time"

	"corral/ptyhost"
	"corral/runs"
)

// handler answers one verb; args is the request's argument object.
type handler func(s *Server, ctx context.Context, args json.RawMessage) (any, *Error)

// verbs are the protocol's verbs (the control API of DESIGN §13, plus hello and list).
var verbs = map[string]handler{
	"hello":     hello,
	"list":      list,
	"spawn":     spawn,
	"poll":      poll,
	"log":       logLines,
	"write":     withRef(func(s *Server, id string, a WriteArgs) error { return s.core.Write(id, a.Data) }),
	"send-keys": withRef(sendKeys),
	"paste":     withRef(func(s *Server, id string, a TextArgs) error { return s.core.Paste(id, a.Text) }),
	"submit":    withRef(func(s *Server, id string, a TextArgs) error { return s.core.Submit(id, a.Text) }),
	"kill":      withRef(func(s *Server, id string, _ RunRef) error { return s.core.Cancel(id) }),
	"interrupt": withRef(func(s *Server, id string, _ RunRef) error { return s.core.Interrupt(id) }),
	"remove":    withRef(func(s *Server, id string, _ RunRef) error { return s.core.Remove(id) }),
	"wait":      wait,
	"shutdown":  shutdown,
}

// decode reads a verb's arguments; a missing object is the zero value.
func decode(args json.RawMessage, v any) *Error {
	if len(args) == 0 {
		return nil
	}
	if err := json.Unmarshal(args, v); err != nil {
		return errorf(CodeBadRequest, "bad arguments: %v", err)
	}
	return nil
}

// refOf is the run reference every per-run argument type carries.
type refOf interface{ ref() string }

func (a RunRef) ref() string    { return a.ID }
func (a WriteArgs) ref() string { return a.ID }
func (a KeysArgs) ref() string  { return a.ID }
func (a TextArgs) ref() string  { return a.ID }

// withRef makes a handler of a verb that acts on one run and returns nothing but an
// error: decode, resolve the run, act.
func withRef[A refOf](act func(s *Server, id string, a A) error) handler {
	return func(s *Server, _ context.Context, raw json.RawMessage) (any, *Error) {
		var a A
		if e := decode(raw, &a); e != nil {
			return nil, e
		}
		id, e := s.resolve(a.ref())
		if e != nil {
			return nil, e
		}
		if err := act(s, id, a); err != nil {
			return nil, errorf(codeOf(err), "%v", err)
		}
		return RunRef{ID: id}, nil
	}
}

// resolve finds the run a reference names: an exact id, else a unique name, else a
// unique id prefix. Names repeat (a restarted run keeps its name): among several runs
// of one name, the only live one is meant.
func (s *Server) resolve(ref string) (string, *Error) {
	if ref == "" {
		return "", errorf(CodeBadRequest, "no run named: give a run id or name")
	}
	if _, err := s.core.Info(ref); err == nil {
		return ref, nil // an exact id, as the UI sends with every key: no snapshot
	}
	infos := s.core.Snapshot()
	var named, live, prefixed []string
	for _, i := range infos {
		switch {
		case i.ID == ref:
			return i.ID, nil
		case i.Name == ref:
			named = append(named, i.ID)
			if !i.Ended() {
				live = append(live, i.ID)
			}
		case strings.HasPrefix(i.ID, ref):
			prefixed = append(prefixed, i.ID)
		}
	}
	for _, ids := range [][]string{named, live, prefixed} {
		if len(ids) == 1 {
			return ids[0], nil
		}
	}
	if len(named)+len(prefixed) > 1 {
		return "", errorf(CodeAmbiguous, "%q names %d runs: give the run id", ref, len(named)+len(prefixed))
	}
	return "", errorf(CodeNoRun, "no run %q", ref)
}

func hello(s *Server, _ context.Context, raw json.RawMessage) (any, *Error) {
	var a Hello
	if e := decode(raw, &a); e != nil {
		return nil, e
	}
	return HelloReply{Version: Version, PID: os.Getpid(), Instance: s.opt.Instance, StateDir: s.opt.StateDir}, nil
}

func list(s *Server, _ context.Context, _ json.RawMessage) (any, *Error) {
	return ListReply{Runs: s.core.Snapshot()}, nil
}

func spawn(s *Server, _ context.Context, raw json.RawMessage) (any, *Error) {
	var a SpawnArgs
	if e := decode(raw, &a); e != nil {
		return nil, e
	}
	a.Spec.BaseEnv = a.BaseEnv
	id, err := s.core.Spawn(a.Spec)
	if id == "" {
		return nil, errorf(CodeFailed, "%v", err)
	}
	s.log.Info("spawned", "run_id", id, "name", a.Spec.Name)
	rep := SpawnReply{ID: id}
	if err != nil {
		rep.SpawnError = err.Error()
	}
	return rep, nil
}

func sendKeys(s *Server, id string, a KeysArgs) error {
	items, err := ptyhost.ParseSendKeysArgs(a.Keys)
	if err != nil {
		return err
	}
	return s.core.SendKeys(id, items)
}

// maxPollWait bounds a blocking poll, as the original supervisor's did.
const maxPollWait = 120 * time.Second

// poll returns the output since the last poll; with WaitMS, when there is none yet, it
// first waits for some or for the run's end, whichever comes first.
func poll(s *Server, ctx context.Context, raw json.RawMessage) (any, *Error) {
	var a PollArgs
	if e := decode(raw, &a); e != nil {
		return nil, e
	}
	id, e := s.resolve(a.ID)
	if e != nil {
		return nil, e
	}
	wait := min(time.Duration(a.WaitMS)*time.Millisecond, maxPollWait)
	var sub *runs.Subscription
	if wait > 0 {
		// Subscribed before the first look: output that comes in between is an event.
		_, sub = s.core.Subscribe()
		defer sub.Close()
	}
	rep, e := s.pollOnce(id)
	if e == nil && sub != nil && len(rep.Output) == 0 && !rep.Ended {
		awaitOutput(ctx, sub, id, wait)
		rep, e = s.pollOnce(id)
	}
	return rep, e
}

func (s *Server) pollOnce(id string) (PollReply, *Error) {
	out, err := s.core.Poll(id)
	if err != nil {
		return PollReply{}, errorf(codeOf(err), "%v", err)
	}
	info, _ := s.core.Info(id)
	rep := PollReply{Output: []byte{}, Dropped: out.Dropped, Ended: info.Ended(), Run: info}
	for _, c := range out.Chunks {
		rep.Output = append(rep.Output, c.Data...)
	}
	return rep, nil
}

// awaitOutput returns at run id's next output or end, or after wait.
func awaitOutput(ctx context.Context, sub *runs.Subscription, id string, wait time.Duration) {
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for {
		select {
		case ev, ok := <-sub.C:
			if !ok || ev.Run.ID == id && (ev.Type == runs.EventOutput || ev.Run.Ended()) {
				return
			}
		case <-timer.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// logLines returns lines of the run's kept output: by default the last
// DefaultLogLines, else Limit lines from Offset. CRLF is folded to LF.
func logLines(s *Server, _ context.Context, raw json.RawMessage) (any, *Error) {
	var a LogArgs
	if e := decode(raw, &a); e != nil {
		return nil, e
	}
	id, e := s.resolve(a.ID)
	if e != nil {
		return nil, e
	}
	out, err := s.core.Log(id)
	if err != nil {
		return nil, errorf(codeOf(err), "%v", err)
	}
	var all []byte
	for _, c := range out.Chunks {
		all = append(all, c.Data...)
	}
	lines := splitLines(all)
	limit := a.Limit
	if limit <= 0 {
		limit = DefaultLogLines
	}
	start := a.Offset
	if a.Tail {
		start = len(lines) - limit
	}
	start = max(0, min(start, len(lines)))
	end := min(start+limit, len(lines))
	return LogReply{Lines: lines[start:end], Offset: start, TotalLines: len(lines), Truncated: out.Dropped > 0}, nil
}

// splitLines splits output into lines, CRLF folded; a last line without a line end
// is kept.
func splitLines(b []byte) []string {
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	if len(b) == 0 {
		return []string{}
	}
	lines := strings.Split(string(bytes.TrimSuffix(b, []byte("\n"))), "\n")
	return lines
}

// wait blocks until the run has ended (or the timeout passes) and returns its report.
func wait(s *Server, ctx context.Context, raw json.RawMessage) (any, *Error) {
	var a WaitArgs
	if e := decode(raw, &a); e != nil {
		return nil, e
	}
	id, e := s.resolve(a.ID)
	if e != nil {
		return nil, e
	}
	if a.TimeoutMS > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(a.TimeoutMS)*time.Millisecond)
		defer cancel()
	}
	info, err := s.core.Wait(ctx, id)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return nil, errorf(CodeTimeout, "%s has not ended after %s", id, time.Duration(a.TimeoutMS)*time.Millisecond)
	case err != nil:
		return nil, errorf(codeOf(err), "%v", err)
	}
	esc, _ := s.core.Escapees(id)
	tail, _ := s.core.Tail(id)
	return WaitReply{Report: runs.NewReport(info, esc, tail), Run: info}, nil
}

// shutdown ends every run (supervisor-shutdown, verified), answers, and stops the
// server once the answer is written.
func shutdown(s *Server, ctx context.Context, _ json.RawMessage) (any, *Error) {
	live := 0
	for _, i := range s.core.Snapshot() {
		if !i.Ended() {
			live++
		}
	}
	s.log.Info("shutdown requested", "live", live)
	err := s.core.Shutdown(context.WithoutCancel(ctx))
	s.stopAfterReply.Store(true) // Stop now would close this connection before the reply
	if err != nil {
		return nil, errorf(CodeFailed, "shutdown: %v", err)
	}
	return struct {
		Ended int `json:"ended"`
	}{live}, nil
}
