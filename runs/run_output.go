package runs

import (
	"io"
	"path/filepath"
	"time"

	"corral/ptyhost"
	"corral/ptyhost/hoptrace"
	"corral/runs/internal/statefile"
)

// A run's output path: what the host's reader goroutine does with every read (screen,
// modes, log, transcripts, recording, mirror, watchdog), and the files it writes to.

// onOutput is called by the host's reader goroutine for every read. It must stay
// cheap: it never takes the run's lifecycle lock.
func (r *run) onOutput(s ptyhost.Stream, p []byte) {
	// The transcript before anything else: these bytes are gone from the PTY or pipe,
	// and a server killed now (kill -9, OOM) leaves its successor only the file to go
	// on from (a keeper keeps only what it reads after the server died). Nobody reads
	// the file as a signal that something was shown.
	r.tx[s].Write(p)
	if m := r.logProbe.Load(); m != nil {
		m.Feed(p) // a log probe's line
	}
	// The screen (or, without one, the mode tracker) and the watchdog first, the log
	// after them: whoever sees the bytes in the log (a poll, a test waiting for output,
	// the UI's log read) then finds them on the screen too, keys are encoded for the
	// modes they set, and the run's Info (its last output, its deadline) counts them. In
	// the other order a poll could return bytes the pane did not show yet (CI saw
	// exactly that), and a viewer's snapshot taken after it saw them could leave the run
	// out as unchanged (SnapshotFor: a reader preempted between the two under load).
	if r.screen != nil {
		r.screen.Write(p)
		// A bell or a desktop notification: the app asks for its human, and its
		// silence from now on is waiting, not hanging.
		if a := r.screen.Attention(); a != r.attn {
			r.attn = a
			r.wd.AwaitInput()
		}
		// An agent's title or OSC 7501 saying it waits or works (screen_activity.go).
		if n, idle := r.screen.Activity(); n != r.said {
			r.said = n
			if idle {
				r.wd.AwaitInput()
			} else {
				r.wd.Working()
			}
		}
	}
	if r.spec.PTY && r.screen == nil {
		r.modes.Feed(p) // keys are encoded with the screen's modes where there is one
	}
	r.wd.Output()
	r.out.write(s, p)
	r.cast.Output(p, time.Now())
	if w := r.mirror(s); w != nil && !r.mirrorErr.Load() {
		if _, err := w.Write(p); err != nil {
			r.mirrorLost(err)
		}
	}
	if a := r.agent.Load(); a != nil {
		r.agentOutput(a, r.sup.clock.Now())
	} else if r.fg != nil {
		r.fg.output() // no agent yet: the foreground program may be one
	}
	select {
	case r.echo <- struct{}{}:
	default:
	}
	r.diff.poke(false)
	e := Event{Type: EventOutput, Run: Info{ID: r.id}}
	if n := r.echoes.Load(); n > 0 && r.echoes.CompareAndSwap(n, n-1) {
		e.Detail = DetailEcho
	}
	r.sup.hub.publish(e)
	hoptrace.Mark("run.pub", e.Detail)
}

// echoReads is how many reads after a write of input are its echo: an echo often
// comes in two or three reads (a key's alone, the keys queued behind it; a shell that
// echoes, then redraws).
const echoReads = 3

// takeSize gives the run's screen and recording a new PTY size.
func (r *run) takeSize(cols, rows uint16) {
	if r.screen != nil {
		r.screen.Resize(int(cols), int(rows))
	}
	r.cast.Resize(cols, rows, time.Now())
}

// onChildResize takes up a window size the child set on its own terminal (FixedSize
// runs), before the output written after it is emulated. Called by the reader, which
// never takes the lifecycle lock, so the Info update goes through a goroutine.
func (r *run) onChildResize(cols, rows uint16) {
	cols, rows = clampSize(cols, rows)
	r.takeSize(cols, rows)
	go r.change(EventState, DetailResize, func(i *Info) { i.Cols, i.Rows = cols, rows })
}

// mirrorLost ends the run when the writer its output is streamed to fails: for corral
// run that is its stdout closed by the reader (EPIPE: `corral run -- yes | head -2`).
// Nobody reads the run any more, so it is ended as Corral itself is being stopped
// (supervisor-shutdown), through the usual escalation; it is not left draining for
// ever. The reader goroutine must not take the lifecycle lock, so the stop is
// asked for on a goroutine of its own, once.
func (r *run) mirrorLost(err error) {
	if r.mirrorErr.Swap(true) {
		return
	}
	r.sup.reg.emit("output-closed", "run_id", r.id, "err", err.Error())
	go r.stop(SupervisorShutdown)
}

func (r *run) mirror(s ptyhost.Stream) io.Writer {
	if s == ptyhost.Stderr && r.spec.Stderr != nil {
		return r.spec.Stderr
	}
	if s == ptyhost.Stdout && r.spec.Stdout != nil {
		return r.spec.Stdout
	}
	return nil
}

// openTranscripts creates the run's transcript files at the paths newRun chose: one
// for a PTY run, stdout and stderr apart for a pipe run.
// With resume it continues those a previous server wrote (readopt.go).
func (r *run) openTranscripts(resume bool) error {
	paths := [2]string{r.info.Transcript, r.info.StderrTranscript}
	for s, path := range paths {
		if path == "" {
			continue
		}
		t, err := statefile.OpenTranscript(r.sup.logs, filepath.Base(path), r.sup.cfg.TranscriptCap, resume)
		if err != nil {
			return err
		}
		r.tx[s] = t
	}
	if r.info.Cast == "" {
		return nil
	}
	var c *statefile.Cast
	var err error
	if resume {
		c, err = statefile.ResumeCast(r.sup.logs, filepath.Base(r.info.Cast), r.sup.cfg.TranscriptCap)
	} else {
		c, err = statefile.CreateCast(r.sup.logs, filepath.Base(r.info.Cast), r.spec.Cols, r.spec.Rows, r.spec.Name, r.sup.cfg.Term,
			r.sup.cfg.TranscriptCap, time.Now())
	}
	if err != nil {
		return err
	}
	r.cast = c
	return nil
}

func (r *run) closeTranscripts() {
	for _, t := range r.tx {
		t.Close()
	}
	r.cast.Close()
}

// replyWriter sends a screen's answers to terminal queries to the run's input.
type replyWriter struct{ p *ptyhost.Proc }

func (w replyWriter) Write(b []byte) (int, error) {
	if err := w.p.Write(b); err != nil {
		return 0, err
	}
	return len(b), nil
}
