package runs

import (
	"errors"
	"fmt"
	"runtime/debug"
	"sync/atomic"
	"syscall"
	"time"

	"corral/ptyhost"
	"corral/ptyhost/hoptrace"
	"corral/ptyhost/keys"
	"corral/ptyhost/screen"
	"corral/reaper"
)

// live returns the run's process if it is running, under no lock the caller holds.
func (s *Supervisor) live(id string) (*run, *ptyhost.Proc, error) {
	r, err := s.get(id)
	if err != nil {
		return nil, nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.info.State != Running {
		return nil, nil, fmt.Errorf("%s is %s: %w", id, r.info.State, ErrNotRunning)
	}
	if r.proc == nil {
		return r, nil, fmt.Errorf("%s: %w", id, ErrAdopted)
	}
	return r, r.proc, nil
}

// Write sends bytes to the run's stdin or PTY. It never blocks on the child.
func (s *Supervisor) Write(id string, b []byte) error {
	r, p, err := s.live(id)
	if err != nil {
		return err
	}
	r.wd.Input()
	r.agentInput()
	r.inputMu.Lock() // behind a submit's Enter, never between its text and its Enter
	defer r.inputMu.Unlock()
	r.echoes.Store(echoReads)
	return p.Write(b)
}

// SendKeys sends parsed send-keys items (keys.ParseSendKeys), encoded for the modes
// the run's app has enabled.
func (s *Supervisor) SendKeys(id string, items []keys.Item) error {
	r, err := s.get(id)
	if err != nil {
		return err
	}
	b, err := keys.EncodeItems(items, r.modesOf())
	if err != nil {
		return err
	}
	hoptrace.MarkBytes("srv.keys", b)
	return s.Write(id, b)
}

// Paste sends text as a paste: bracketed when the app enabled mode 2004.
func (s *Supervisor) Paste(id, text string) error {
	r, err := s.get(id)
	if err != nil {
		return err
	}
	return s.Write(id, keys.EncodePaste(text, r.modesOf().BracketedPaste))
}

// The pause of a submit between its text and its Enter. Agents' input boxes (Claude
// Code, codex) read a paste and an Enter that arrive in one read as a paste that holds
// a newline, and the prompt is not sent: the Enter must come in a read of its own,
// after the app has taken the text. The app's redraw of its input box says it has;
// submitSettle more lets it finish that read. An app that echoes nothing gets its Enter
// after submitEchoWait.
const (
	submitEchoWait = 500 * time.Millisecond
	submitSettle   = 30 * time.Millisecond
)

// Submit pastes text, waits until the app has taken it (its next output, at most
// submitEchoWait), then presses Enter, in a write of its own. Input written meanwhile
// waits behind the Enter. It blocks for that pause; the UI and the server call it
// off their event loops.
func (s *Supervisor) Submit(id, text string) error {
	r, p, err := s.live(id)
	if err != nil {
		return err
	}
	b := keys.EncodePaste(text, r.modesOf().BracketedPaste)
	r.wd.Input()
	r.agentInput()
	r.inputMu.Lock()
	defer r.inputMu.Unlock()
	if len(b) > 0 {
		select {
		case <-r.echo: // output from before the paste says nothing
		default:
		}
		if err := p.Write(b); err != nil {
			return err
		}
		wait := time.NewTimer(submitEchoWait)
		select {
		case <-r.echo:
		case <-wait.C:
		}
		wait.Stop()
		settle := time.NewTimer(submitSettle)
		<-settle.C
	}
	return p.Write([]byte{'\r'})
}

// Interrupt is ctrl+c: the byte 0x03 into a PTY (the line discipline turns it into
// SIGINT for the foreground group, as a terminal would), SIGINT to every group of a pipe
// run's session.
func (s *Supervisor) Interrupt(id string) error {
	r, p, err := s.live(id)
	if errors.Is(err, ErrAdopted) { // no terminal: signal it
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.signalAdoptedLocked(syscall.SIGINT)
	}
	if err != nil {
		return err
	}
	if r.spec.PTY {
		return p.Write([]byte{0x03})
	}
	return reaper.SignalSession(p.PID(), syscall.SIGINT)
}

// signalAdoptedLocked signals what an adopted run provably owns, each process through
// a verified pidfd: its root is not our child, so its session number may be a
// stranger's by now, and a record may be forged. r.mu is held.
func (r *run) signalAdoptedLocked(sig syscall.Signal) error {
	return reaper.SignalClaimed(r.claim(), fingerprints(r.escapees), sig)
}

// CloseStdin closes a pipe run's stdin once queued input is written.
func (s *Supervisor) CloseStdin(id string) error {
	r, p, err := s.live(id)
	if err != nil {
		return err
	}
	if err := p.CloseStdin(); err != nil {
		return err
	}
	if k := s.keeper; k != nil {
		k.CloseInput(r.id) // its copy would keep the run from reading EOF
	}
	return nil
}

// Resize sets a PTY run's window size; the kernel sends the child SIGWINCH. The screen
// takes the size first, as tmux's does: what the child draws once told of the size
// must be emulated at that size, and it may be read before a later resize of the
// screen would happen. The size is clamped to what a terminal can be (clampSize).
func (s *Supervisor) Resize(id string, cols, rows uint16) error {
	r, p, err := s.live(id)
	if err != nil {
		return err
	}
	cols, rows = clampSize(cols, rows)
	old := r.snapshot()
	r.takeSize(cols, rows)
	if err := p.Resize(cols, rows); err != nil {
		if old.Cols > 0 && old.Rows > 0 {
			r.takeSize(old.Cols, old.Rows)
		}
		return err
	}
	r.change(EventState, DetailResize, func(i *Info) { i.Cols, i.Rows = cols, rows })
	if int(old.Cols)*int(old.Rows) >= bigScreen && int(cols)*int(rows) < int(old.Cols)*int(old.Rows) {
		freeMemory() // the larger screen's cells are garbage now
	}
	return nil
}

// bigScreen is the cells of a screen whose giving up returns memory to the OS
// (about 8 MB of emulator cells); a screen of 1000×500 is 500,000.
const bigScreen = 250_000

// clampSize bounds a window size to what a terminal can be, screen.MaxCols ×
// screen.MaxRows: a run asked for 65535×65535 held ~90 MB for its screen alone.
// A zero stays zero (for the caller to refuse or default).
func clampSize(cols, rows uint16) (uint16, uint16) {
	return min(cols, screen.MaxCols), min(rows, screen.MaxRows)
}

// freeing is set while a return of freed memory to the OS is scheduled.
var freeing atomic.Bool

// freeMemory returns freed heap to the OS within a second, at most once a second (each
// is a full collection): Go keeps freed heap for reuse, and a server would otherwise
// keep the peak of its largest screens.
func freeMemory() {
	if freeing.Swap(true) {
		return
	}
	time.AfterFunc(time.Second, func() {
		freeing.Store(false)
		debug.FreeOSMemory()
	})
}

// Pause stops every process of the run's session with SIGSTOP (not SIGTSTP, which
// orphaned process groups ignore) and freezes the no-output deadline.
func (s *Supervisor) Pause(id string) error { return s.setPaused(id, true) }

// Resume continues a paused run with SIGCONT and re-arms the no-output deadline with
// the time it had left.
func (s *Supervisor) Resume(id string) error { return s.setPaused(id, false) }

func (s *Supervisor) setPaused(id string, pause bool) error {
	r, err := s.get(id)
	if err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.info.State != Running:
		return fmt.Errorf("%s is %s: %w", id, r.info.State, ErrNotRunning)
	case pause && r.info.Paused:
		return ErrPaused
	case !pause && !r.info.Paused:
		return ErrNotPaused
	}
	sig := sigCont
	if pause {
		sig = sigStop
	}
	if err := r.pauseLocked(pause, sig); err != nil {
		return fmt.Errorf("pause %s: %w", id, err)
	}
	if pause {
		r.wd.Pause()
	} else {
		r.wd.Resume()
	}
	r.changeLocked(EventPause, sig.String(), func(i *Info) { i.Paused = pause })
	return nil
}

// Log returns the run's capped in-memory output.
func (s *Supervisor) Log(id string) (Output, error) {
	r, err := s.get(id)
	if err != nil {
		return Output{}, err
	}
	return r.out.all(), nil
}

// Poll returns the output that arrived since the previous Poll of this run.
func (s *Supervisor) Poll(id string) (Output, error) {
	r, err := s.get(id)
	if err != nil {
		return Output{}, err
	}
	return r.out.poll(), nil
}

// Tail returns the last bytes of the run's output (config TailBytes).
func (s *Supervisor) Tail(id string) ([]byte, error) {
	r, err := s.get(id)
	if err != nil {
		return nil, err
	}
	return r.out.tail(s.cfg.TailBytes), nil
}

// pauseLocked stops or continues the run: its cgroup frozen or thawed, or SIGSTOP
// or SIGCONT to every group of its session.
func (r *run) pauseLocked(pause bool, sig syscall.Signal) error {
	switch {
	case r.cgroup != nil:
		return r.freeze(pause)
	case r.info.Adopted:
		return r.signalAdoptedLocked(sig)
	}
	return reaper.SignalSession(r.info.PID, sig)
}
