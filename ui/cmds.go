package ui

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/config"
	"corral/ptyhost/keys"
	"corral/runs"
	"corral/runs/api"
	"corral/ui/common"
	"corral/ui/terminal"
)

// Most of the UI's calls to its core are in this file, each inside a tea.Cmd that
// captures the values it needs (the core and ids, never the model), so it runs off the
// UI goroutine. The others are off it too: the snapshots fetched again after a link
// or a host comes back (link.go, hosts.go), the restore offer and restore
// (restore.go) and a run's input sent by its queue's writer goroutine (inputqueue.go).

// shutdownTimeout bounds Shutdown at quit: a process stuck in the kernel must not keep
// the UI open for ever (the runs' records say what was left).
const shutdownTimeout = 2 * time.Minute

// bg is the context of a command's core call: the UI waits for every answer (the core
// bounds its own waits); shutdown is bounded below.
var bg = context.Background()

// snapshotCmd reads the runs that changed since this UI's last snapshot (every run
// with all): the UI keeps its rows and upserts what comes.
func snapshotCmd(c Engine, all bool) tea.Cmd {
	return func() tea.Msg {
		rep, err := api.Snapshot.Call(bg, c, api.SnapshotArgs{Viewer: c.Viewer(), All: all})
		return SnapshotMsg{Runs: rep.Runs, Err: err}
	}
}

// diffCmd reads run id's diff against its worktree's base, plain (the diff view
// colours it), for the view's generation gen: every page of it (api.DiffAll).
func diffCmd(c Engine, id string, gen int) tea.Cmd {
	return func() tea.Msg {
		r, err := api.DiffAll(bg, c, api.DiffArgs{ID: id})
		return DiffMsg{ID: id, Gen: gen, Result: r, Err: err}
	}
}

func metricsCmd(c Engine) tea.Cmd {
	return func() tea.Msg {
		m, err := api.Metrics.Call(bg, c, struct{}{})
		return MetricsMsg{Metrics: m, Err: err}
	}
}

func treesCmd(c Engine, ids ...string) tea.Cmd {
	return func() tea.Msg {
		t, err := api.Trees.Call(bg, c, api.TreesArgs{IDs: ids})
		return TreesMsg{Trees: t, Err: err}
	}
}

func screenCmd(c Engine, id string) tea.Cmd {
	return func() tea.Msg {
		s, err := c.Screen(id)
		if err != nil || s == nil {
			return ScreenMsg{ID: id} // a typed nil must not become a non-nil Screen
		}
		return ScreenMsg{ID: id, Screen: s}
	}
}

// screensCmd reads the screens of the PTY runs of rs in one message: at a thousand
// runs, a command and a message each were a thousand goroutines and turns of the
// UI's loop while it drew its first frame.
func screensCmd(c Engine, rs []runs.Info) tea.Cmd {
	var ids []string
	for _, i := range rs {
		if i.Kind == runs.KindPTY {
			ids = append(ids, i.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	return func() tea.Msg {
		var out ScreensMsg
		for _, id := range ids {
			out = append(out, screenCmd(c, id)().(ScreenMsg))
		}
		return out
	}
}

// output is run id's kept output.
func output(c Engine, id string) (runs.Output, error) {
	rep, err := api.Output.Call(bg, c, api.RunRef{ID: id})
	return rep.Output, err
}

func logCmd(c Engine, id string) tea.Cmd {
	return func() tea.Msg {
		o, err := output(c, id)
		return LogMsg{ID: id, Output: o, Err: err}
	}
}

// historyCmd reads a run's history as lines: a PTY run's screen's, the lines that
// scrolled off it and then the screen, as tmux keeps them (fidelity round 3); else
// (a pipe run, a run without a screen) its transcript, or without one its captured
// log.
func historyCmd(c Engine, id, transcript string, pipe bool) tea.Cmd {
	return func() tea.Msg {
		if !pipe {
			args := api.ScreenArgs{ID: id, Escapes: true, History: true}
			if cp, err := api.ScreenAll(bg, c, args); err == nil {
				return HistoryMsg{ID: id, Lines: terminal.ScreenHistory(cp.Lines)}
			}
		}
		if transcript == "" || pipe { // a pipe run's log keeps stderr apart
			o, err := output(c, id)
			return HistoryMsg{ID: id, Lines: terminal.HistoryOutput(o), Err: err}
		}
		b, err := terminal.ReadTail(transcript, terminal.MaxHistoryBytes)
		return HistoryMsg{ID: id, Lines: terminal.HistoryText(b), Err: err}
	}
}

// inputCmd types items into run id, encoded there with its app's modes (api.Input).
func inputCmd(c Engine, id string, items []keys.Item) tea.Cmd {
	return func() tea.Msg {
		_, err := api.Input.Call(bg, c, api.InputArgs{ID: id, Items: items, Viewer: c.Viewer()})
		return WrittenMsg{ID: id, Err: err}
	}
}

func writeCmd(c Engine, id string, b []byte) tea.Cmd {
	return func() tea.Msg {
		_, err := api.Write.Call(bg, c, api.WriteArgs{ID: id, Data: b, Viewer: c.Viewer()})
		return WrittenMsg{ID: id, Err: err}
	}
}

// finishCmd finishes run id's worktree as o says (api.Finish).
func finishCmd(c Engine, id string, o runs.FinishOptions) tea.Cmd {
	return func() tea.Msg {
		res, err := api.Finish.Call(bg, c, api.FinishArgs{ID: id, FinishOptions: o})
		return FinishedMsg{ID: id, Result: res, Err: err}
	}
}

// doCmd calls one operation on run id and reports it as a DoneMsg.
func doCmd[A, R any](c Engine, op *api.Op[A, R], id string, a A) tea.Cmd {
	return func() tea.Msg {
		_, err := op.Call(bg, c, a)
		return DoneMsg{Op: op.Name(), ID: id, Err: err}
	}
}

// runCmd calls an operation that only names its run (pause, resume, kill, interrupt).
func runCmd(c Engine, op *api.Op[api.RunRef, api.RunRef], id string) tea.Cmd {
	return doCmd(c, op, id, api.RunRef{ID: id})
}

// watchCmd names the shown run to the core: a server streams its frames, and its size
// follows this UI's pane as the window-size policy says (api.Show). A failure only
// means no frames, which the pane shows as it is, or a run that ended.
func watchCmd(c Engine, id string) tea.Cmd {
	return func() tea.Msg {
		c.Watch(id)
		api.Show.Call(bg, c, api.ShowArgs{Viewer: c.Viewer(), ID: id})
		return nil
	}
}

// focusCmd tells the core the user no longer looks at run old and looks at run now
// ("" for none); a failure only means a run that ended.
func focusCmd(c Engine, old, now string) tea.Cmd {
	return func() tea.Msg {
		viewer := c.Viewer()
		if old != "" {
			api.Focus.Call(bg, c, api.FocusArgs{ID: old, Viewer: viewer, Focused: false})
		}
		if now != "" {
			api.Focus.Call(bg, c, api.FocusArgs{ID: now, Viewer: viewer, Focused: true})
		}
		return nil
	}
}

// notifyCmd tells the user through Corral's own terminal: a desktop notification
// (OSC 9, or OSC 777 by [notify] terminal) with text made safe for a terminal.
func notifyCmd(kind, text string) tea.Cmd {
	text = common.Clean(text)
	switch {
	case text == "":
		return nil
	case kind == config.NotifyOSC777:
		return tea.Raw("\x1b]777;notify;Corral;" + text + "\x07")
	case kind == config.NotifyOSC9:
		return tea.Raw("\x1b]9;" + text + "\x07")
	}
	return nil
}

func sendKeysCmd(c Engine, id string, items []keys.Item) tea.Cmd {
	return doCmd(c, api.SendItems, id, api.ItemsArgs{ID: id, Items: items})
}

func pasteCmd(c Engine, id, text string) tea.Cmd {
	return doCmd(c, api.Paste, id, api.TextArgs{ID: id, Text: text})
}

func submitCmd(c Engine, id, text string) tea.Cmd {
	return doCmd(c, api.Submit, id, api.TextArgs{ID: id, Text: text})
}

// spawn starts spec from this process (its directory and environment); a run that
// ended at once with spawn-error comes back with its id and the error.
func spawn(c Engine, spec runs.Spec) (string, error) { return spawnWith(c, spec, false) }

// spawnWith is spawn, the spec's dependencies named as on the command line when
// named (spawnArgs).
func spawnWith(c Engine, spec runs.Spec, named bool) (string, error) {
	rep, err := api.Spawn.Call(bg, c, spawnArgs(c, spec, named))
	if err == nil && rep.SpawnErr != "" {
		err = errors.New(rep.SpawnErr)
	}
	return rep.ID, err
}

func spawnCmd(c Engine, spec runs.Spec) tea.Cmd {
	return func() tea.Msg {
		id, err := spawn(c, spec)
		return SpawnedMsg{ID: id, Err: err}
	}
}

// spawnFormCmd is spawnCmd of the new-run form's spec, its dependencies named as
// on the command line.
func spawnFormCmd(c Engine, spec runs.Spec) tea.Cmd {
	return func() tea.Msg {
		id, err := spawnWith(c, spec, true)
		return SpawnedMsg{ID: id, Err: err, FromForm: true}
	}
}

// restartCmd spawns an ended run's spec again; the new run takes the old one's row.
func restartCmd(c Engine, spec runs.Spec, old string) tea.Cmd {
	return func() tea.Msg {
		id, err := spawn(c, spec)
		return SpawnedMsg{ID: id, Err: err, Replaces: old}
	}
}

// startCmd spawns a pending run's spec; the message names the pending run.
func startCmd(c Engine, pending string, spec runs.Spec) tea.Cmd {
	return func() tea.Msg {
		id, err := spawn(c, spec)
		return SpawnedMsg{ID: id, Err: err, Pending: pending}
	}
}

func removeCmd(c Engine, id string) tea.Cmd {
	return func() tea.Msg {
		_, err := api.Remove.Call(bg, c, api.RunRef{ID: id})
		return RemovedMsg{ID: id, Err: err}
	}
}

func reconcileCmd(c Engine) tea.Cmd {
	return func() tea.Msg {
		d, err := api.Reconcile.Call(bg, c, struct{}{})
		return ReconciledMsg{Decisions: d, Err: err}
	}
}

// resize is one run's wanted PTY size.
type resize struct {
	id         string
	cols, rows uint16
}

// resizeCmd resizes runs one after another and reports the first failure. A run that
// ended meanwhile is no failure: it has nothing left to resize.
func resizeCmd(c Engine, rs []resize) tea.Cmd {
	return func() tea.Msg {
		done := DoneMsg{Op: api.Resize.Name()}
		for _, r := range rs {
			_, err := api.Resize.Call(bg, c, api.ResizeArgs{ID: r.id, Cols: r.cols, Rows: r.rows, Viewer: c.Viewer()})
			if err != nil && !errors.Is(err, runs.ErrNotRunning) && done.Err == nil {
				done.ID, done.Err = r.id, err
			}
		}
		return done
	}
}

func shutdownCmd(c Engine) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(bg, shutdownTimeout)
		defer cancel()
		_, err := api.Shutdown.Call(ctx, c, struct{}{})
		return ShutdownMsg{Err: err}
	}
}
