package ui

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"corral/ptyhost"
	"corral/runs"
)

// Every Core call of the UI is in this file, inside a tea.Cmd that captures the values
// it needs (the core and ids, never the model), so it runs off the UI goroutine.

// shutdownTimeout bounds Shutdown at quit: a process stuck in the kernel must not keep
// the UI open for ever (the runs' records say what was left).
const shutdownTimeout = 2 * time.Minute

func tickCmd(gen int, every time.Duration) tea.Cmd {
	return tea.Tick(every, func(time.Time) tea.Msg { return tickMsg{gen: gen} })
}

func snapshotCmd(c Core) tea.Cmd {
	return func() tea.Msg { return SnapshotMsg{Runs: c.Snapshot()} }
}

func metricsCmd(c Core) tea.Cmd {
	return func() tea.Msg { return MetricsMsg{Metrics: c.Metrics()} }
}

func treesCmd(c Core, ids ...string) tea.Cmd {
	return func() tea.Msg {
		t, err := c.Trees(ids...)
		return TreesMsg{Trees: t, Err: err}
	}
}

func screenCmd(c Core, id string) tea.Cmd {
	return func() tea.Msg {
		s, err := c.Screen(id)
		if err != nil || s == nil {
			return ScreenMsg{ID: id} // a typed nil must not become a non-nil Screen
		}
		return ScreenMsg{ID: id, Screen: s}
	}
}

func logCmd(c Core, id string) tea.Cmd {
	return func() tea.Msg {
		o, err := c.Log(id)
		return LogMsg{ID: id, Output: o, Err: err}
	}
}

// historyCmd reads a run's transcript (or, without one, its captured log) as lines.
func historyCmd(c Core, id, transcript string, pipe bool) tea.Cmd {
	return func() tea.Msg {
		if transcript == "" || pipe { // a pipe run's log keeps stderr apart
			o, err := c.Log(id)
			return HistoryMsg{ID: id, Lines: historyOutput(o), Err: err}
		}
		b, err := readTail(transcript, maxHistoryBytes)
		return HistoryMsg{ID: id, Lines: historyText(b), Err: err}
	}
}

func writeCmd(c Core, id string, b []byte) tea.Cmd {
	return func() tea.Msg { return WrittenMsg{ID: id, Err: c.Write(id, b)} }
}

// doCmd runs one core operation on a run and reports it as a DoneMsg.
func doCmd(op, id string, f func(string) error) tea.Cmd {
	return func() tea.Msg { return DoneMsg{Op: op, ID: id, Err: f(id)} }
}

// watchCmd names the shown run to the core; a failure only means no frames, which
// the pane shows as it is.
func watchCmd(c Core, id string) tea.Cmd {
	return func() tea.Msg {
		c.Watch(id)
		return nil
	}
}

func sendKeysCmd(c Core, id string, items []ptyhost.Item) tea.Cmd {
	return doCmd("send-keys", id, func(id string) error { return c.SendKeys(id, items) })
}

func pasteCmd(c Core, id, text string) tea.Cmd {
	return doCmd("paste", id, func(id string) error { return c.Paste(id, text) })
}

func submitCmd(c Core, id, text string) tea.Cmd {
	return doCmd("submit", id, func(id string) error { return c.Submit(id, text) })
}

func spawnCmd(c Core, spec runs.Spec) tea.Cmd {
	return func() tea.Msg {
		id, err := c.Spawn(spec)
		return SpawnedMsg{ID: id, Err: err}
	}
}

// restartCmd spawns an ended run's spec again; the new run takes the old one's row.
func restartCmd(c Core, spec runs.Spec, old string) tea.Cmd {
	return func() tea.Msg {
		id, err := c.Spawn(spec)
		return SpawnedMsg{ID: id, Err: err, Replaces: old}
	}
}

// startCmd spawns a pending run's spec; the message names the pending run.
func startCmd(c Core, pending string, spec runs.Spec) tea.Cmd {
	return func() tea.Msg {
		id, err := c.Spawn(spec)
		return SpawnedMsg{ID: id, Err: err, Pending: pending}
	}
}

func removeCmd(c Core, id string) tea.Cmd {
	return func() tea.Msg { return RemovedMsg{ID: id, Err: c.Remove(id)} }
}

func reconcileCmd(c Core) tea.Cmd {
	return func() tea.Msg {
		d, err := c.Reconcile(context.Background())
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
func resizeCmd(c Core, rs []resize) tea.Cmd {
	return func() tea.Msg {
		done := DoneMsg{Op: "resize"}
		for _, r := range rs {
			err := c.Resize(r.id, r.cols, r.rows)
			if err != nil && !errors.Is(err, runs.ErrNotRunning) && done.Err == nil {
				done.ID, done.Err = r.id, err
			}
		}
		return done
	}
}

func shutdownCmd(c Core) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		defer cancel()
		return ShutdownMsg{Err: c.Shutdown(ctx)}
	}
}
