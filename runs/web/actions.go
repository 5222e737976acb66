package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"corral/ptyhost/screen/grid"
	"corral/runs"
	"corral/runs/api"
)

// MaxBody bounds what one POST may carry: a paste larger than this is refused
// whole, never cut.
const MaxBody = 256 << 10

// historyMax bounds the scrollback one request returns: its newest lines.
const historyMax = 5000

// actionBody is what a POST carries: send-keys words (keys), or text (paste,
// submit).
type actionBody struct {
	Keys []string `json:"keys"`
	Text string   `json:"text"`
	// The question an approve or deny answers, as the page showed it (its rule and
	// since): when the run has moved on to another, the answer is not sent.
	Rule  string `json:"rule"`
	Since int64  `json:"since"`
}

// act runs one action on one run: keys, paste, submit, interrupt, cancel, approve,
// deny. Nothing reaches a run from a read-only view, a run the list does not hold,
// or an action the page does not have.
func (s *Server) act(w http.ResponseWriter, r *http.Request) {
	if s.readOnly {
		http.Error(w, "read-only: corral web --read-only sends nothing", http.StatusForbidden)
		return
	}
	id, action := r.PathValue("id"), r.PathValue("action")
	if _, ok := s.hub.run(id); !ok {
		http.Error(w, fmt.Sprintf("no run %q", id), http.StatusNotFound)
		return
	}
	b, code, err := readBody(w, r)
	if err != nil {
		http.Error(w, err.Error(), code)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	if code, err := s.apply(ctx, id, action, b); err != nil {
		http.Error(w, err.Error(), code)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// readBody reads a POST's JSON body, at most MaxBody.
func readBody(w http.ResponseWriter, r *http.Request) (actionBody, int, error) {
	var b actionBody
	r.Body = http.MaxBytesReader(w, r.Body, MaxBody)
	if err := json.NewDecoder(r.Body).Decode(&b); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return b, http.StatusRequestEntityTooLarge, fmt.Errorf("over %d bytes: not sent", MaxBody)
		}
		return b, http.StatusBadRequest, fmt.Errorf("want a JSON body: %v", err)
	}
	return b, 0, nil
}

// apply does action on run id through the server, and says how it went.
func (s *Server) apply(ctx context.Context, id, action string, b actionBody) (int, error) {
	var err error
	switch action {
	case "keys":
		_, err = api.SendKeys.Call(ctx, s.hub.core, api.KeysArgs{ID: id, Keys: b.Keys})
	case "paste":
		_, err = api.Paste.Call(ctx, s.hub.core, api.TextArgs{ID: id, Text: b.Text})
	case "submit":
		_, err = api.Submit.Call(ctx, s.hub.core, api.TextArgs{ID: id, Text: b.Text})
	case "interrupt":
		_, err = api.Interrupt.Call(ctx, s.hub.core, api.RunRef{ID: id})
	case "cancel":
		_, err = api.Kill.Call(ctx, s.hub.core, api.RunRef{ID: id})
	case "approve", "deny":
		info, _ := s.hub.run(id)
		if b.Rule != "" && b.Rule != info.AgentRule || b.Since != 0 && b.Since != info.AgentStateSince.UnixMilli() {
			return http.StatusConflict, fmt.Errorf("%s: the question changed since the page showed it: not sent", action)
		}
		approve, deny := s.hub.answers(info)
		words := map[string][]string{"approve": approve, "deny": deny}[action]
		if len(words) == 0 {
			return http.StatusConflict, fmt.Errorf("%s: the run waits at no question its agent's rules say how to %s", action, action)
		}
		_, err = api.SendKeys.Call(ctx, s.hub.core, api.KeysArgs{ID: id, Keys: words})
	default:
		return http.StatusNotFound, fmt.Errorf("no action %q", action)
	}
	if err != nil {
		return status(err), err
	}
	return 0, nil
}

// status is the HTTP status of a server's error.
func status(err error) int {
	e := api.AsError(err)
	if e == nil {
		return http.StatusBadGateway
	}
	switch e.Code {
	case api.CodeNoRun:
		return http.StatusNotFound
	case api.CodeBadRequest, api.CodeAmbiguous:
		return http.StatusBadRequest
	case api.CodeNotRunning:
		return http.StatusConflict
	case api.CodeTooLarge:
		return http.StatusRequestEntityTooLarge
	case api.CodeBusy:
		return http.StatusServiceUnavailable
	}
	return http.StatusBadGateway
}

// focus is a browser saying whether the page has focus on the run it views.
// A read-only view does not say so: the server tells an app that asked for focus
// reports by writing them to its terminal, and read-only writes nothing to a run.
func (s *Server) focus(w http.ResponseWriter, r *http.Request) {
	if s.readOnly {
		http.Error(w, "read-only: corral web --read-only sends nothing, focus reports neither", http.StatusForbidden)
		return
	}
	var b struct {
		Client  string `json:"client"`
		Focused bool   `json:"focused"`
	}
	r.Body = http.MaxBytesReader(w, r.Body, 4096)
	if err := json.NewDecoder(r.Body).Decode(&b); err != nil {
		http.Error(w, "want a JSON body: "+err.Error(), http.StatusBadRequest)
		return
	}
	c := s.hub.clientByID(b.Client)
	if c == nil {
		http.Error(w, "no such live channel", http.StatusNotFound)
		return
	}
	s.hub.setFocus(c, b.Focused)
	w.WriteHeader(http.StatusNoContent)
}

// history is a run's scrollback and screen as rows of spans, its newest lines.
func (s *Server) history(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	info, ok := s.hub.run(id)
	if !ok {
		http.Error(w, fmt.Sprintf("no run %q", id), http.StatusNotFound)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
	defer cancel()
	var g *grid.Grid
	if info.Kind != runs.KindPipe {
		cp, err := api.ScreenAll(ctx, s.hub.core, api.ScreenArgs{ID: id, Escapes: true, History: true})
		if err != nil {
			http.Error(w, err.Error(), status(err))
			return
		}
		lines := cp.Lines[max(0, len(cp.Lines)-historyMax):]
		g = grid.Parse(lines, max(cp.Cols, 1), len(lines), 0, 0, false)
	} else { // a pipe run: its output, wrapped as its view is
		rep, err := api.Log.Call(ctx, s.hub.core, api.LogArgs{ID: id, Tail: true, Limit: historyMax})
		if err != nil {
			http.Error(w, err.Error(), status(err))
			return
		}
		g = wrapLines(rep.Lines, logCols, -1)
	}
	out := make([]json.RawMessage, g.Rows)
	for y := range g.Rows {
		b, _ := json.Marshal(rowSpans(g, y))
		out[y] = b
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	json.NewEncoder(w).Encode(map[string]any{"cols": g.Cols, "lines": out})
}
