// Package export turns a recording (an asciicast v2 file, as Corral writes for every
// PTY run, or asciinema's v2 or v3) into pictures for a README: an animated or still
// SVG, a GIF, a PNG. The recording is played through Corral's own terminal emulator
// (ptyhost/screen, the panes'), so a picture shows what the pane showed, cell for
// cell. cast.go reads the file; frames.go plays it into timed frames; export.go
// writes them to a file; the drawing is svg's and raster's.
package export

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"time"

	"corral/ptyhost/screen"
	"corral/ptyhost/screen/grid"
)

// Timing is what of a recording is exported and how fast.
type Timing struct {
	From, To time.Duration // the part of the recording (To 0: to its end)
	// IdleLimit: a pause longer than this is shortened to it (0: to the header's
	// idle_time_limit if it has one, else kept; below 0: kept).
	IdleLimit time.Duration
	Speed     float64       // 2 plays twice as fast (0: 1)
	FPS       int           // at most this many frames a second (0: no cap)
	Hold      time.Duration // how long the last frame stays before the end (or a loop)
	// At a time of the recording: one frame, the screen then (Still).
	At    time.Duration
	Still bool
	// Cols, Rows: the frames' size, cropped or padded from the top left (0: the
	// header's; File makes it the largest the recording's resizes reach).
	Cols, Rows int
}

// Sink takes an export's frames as they are made: Frame for each, in order (each
// shows from at until the next one's at), then End with the time the last one ends.
// A frame's grid is the sink's to keep: a long recording's frames are never all held
// by the player.
type Sink interface {
	Frame(g *grid.Grid, at time.Duration) error
	End(end time.Duration) error
}

// Movie is a Sink that keeps every frame: Grids[k] shows from At[k] on, the last
// until Until.
type Movie struct {
	Grids []*grid.Grid
	At    []time.Duration
	Until time.Duration
}

func (m *Movie) Frame(g *grid.Grid, at time.Duration) error {
	m.Grids, m.At = append(m.Grids, g), append(m.At, at)
	return nil
}

func (m *Movie) End(end time.Duration) error { m.Until = end; return nil }

// Played is what Play did: how many frames it gave the sink and how many events it
// played; Stopped, when not nil, why the reading stopped before the end of the file
// (a *LineError).
type Played struct {
	Frames, Events int
	End            time.Duration
	Stopped        error
}

// Play reads the recording in r and plays it through a screen into frames as t says,
// which go to sink. progress, when not nil, is called with the bytes read so far.
func Play(r io.Reader, t Timing, sink Sink, progress func(read int64)) (Played, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	h, err := readHeader(br) // io.EOF: a header and no event
	if err != nil && !errors.Is(err, io.EOF) {
		return Played{}, err
	}
	head := h.Line
	cols, rows := t.Cols, t.Rows
	if cols <= 0 {
		cols = h.Width
	}
	if rows <= 0 {
		rows = h.Height
	}
	// A frame is never larger than a screen can be (a header may say anything).
	cols, rows = min(cols, screen.MaxCols), min(rows, screen.MaxRows)
	p := &player{t: t, scr: screen.NewScreen(h.Width, h.Height), cols: cols, rows: rows, sink: sink}
	if t.Speed <= 0 {
		p.t.Speed = 1
	}
	switch {
	case t.IdleLimit < 0:
		p.t.IdleLimit = 0 // pauses kept, whatever the header says
	case t.IdleLimit == 0 && h.IdleTimeLimit > 0 && h.IdleTimeLimit < maxIdle.Seconds():
		// The limit the recording asks of its players, as asciinema's player keeps it.
		p.t.IdleLimit = time.Duration(h.IdleTimeLimit * float64(time.Second))
	}
	if t.FPS > 0 {
		p.gap = time.Second / time.Duration(t.FPS)
	}
	read := int64(len(head)) + 1
	lineNo := 1
	var last time.Duration
	for err == nil {
		var line []byte
		line, err = readLine(br)
		lineNo++
		read += int64(len(line)) + 1
		if err != nil && !errors.Is(err, io.EOF) {
			p.done.Stopped = &LineError{Line: lineNo, Err: err}
			break
		}
		if trimmed := bytes.TrimSpace(line); len(trimmed) == 0 || h.Intervals() && trimmed[0] == '#' {
			continue // a blank line; a comment of version 3
		}
		at, kind, data, perr := parseEvent(line)
		if perr != nil {
			p.done.Stopped = &LineError{Line: lineNo, Err: perr, Cut: errors.Is(err, io.EOF)}
			break
		}
		if h.Intervals() {
			at += last // version 3's time is the interval since the event before
		}
		at = max(at, last) // a time going backwards is taken as the one before
		last = at
		p.recEnd = at
		if p.event(at, kind, data) || p.err != nil {
			break
		}
		if progress != nil {
			progress(read)
		}
	}
	if p.err == nil && !p.started && !t.Still && t.From > 0 {
		end := fmt.Sprintf("the recording's end (%s)", p.recEnd)
		if p.done.Stopped != nil {
			end = fmt.Sprintf("the end of what could be read (%s, up to line %d)", p.recEnd, p.done.Stopped.(*LineError).Line)
		}
		return p.done, fmt.Errorf("--from %s is after %s: nothing to export", t.From, end)
	}
	p.finish()
	return p.done, p.err
}

// player turns events into frames.
type player struct {
	t          Timing
	scr        *screen.Screen
	cols, rows int
	sink       Sink
	done       Played
	err        error         // the sink's
	cur        *grid.Grid    // the last frame, not yet given to the sink: one of the same time replaces it
	curAt      time.Duration // its time
	given      *grid.Grid    // the last frame the sink has
	gap        time.Duration // the shortest time between two frames
	started    bool          // the first event at or after From was seen
	lastAt     time.Duration // the recording's time of the event before
	recEnd     time.Duration // the recording's time of the last event read
	out        time.Duration // the output's time of the event before
	pending    bool          // events played since the last frame
	pendingAt  time.Duration // the output time the pending frame shows from
}

// event plays one event of the recording at at; true once no more are wanted.
func (p *player) event(at time.Duration, kind, data string) bool {
	if p.t.Still {
		if at > p.t.At {
			return true
		}
		p.apply(kind, data)
		return false
	}
	if p.t.To > 0 && at > p.t.To {
		return true
	}
	if at < p.t.From {
		p.apply(kind, data) // what the screen shows at From
		return false
	}
	if !p.started {
		p.started = true
		p.lastAt = p.t.From
		p.snapshot(0, false)
	}
	gap := at - p.lastAt
	if p.t.IdleLimit > 0 {
		gap = min(gap, p.t.IdleLimit)
	}
	p.lastAt = at
	p.out += time.Duration(float64(gap) / p.t.Speed)
	if p.pending && p.out >= p.pendingAt+p.gap && p.snapshot(p.pendingAt, false) {
		p.pending = false
	}
	if !p.pending {
		p.pending, p.pendingAt = true, p.out
	}
	p.apply(kind, data)
	return false
}

func (p *player) apply(kind, data string) {
	p.done.Events++
	switch kind {
	case "o":
		p.scr.Write([]byte(data))
	case "r":
		if c, r, ok := parseSize(data); ok {
			p.scr.Resize(c, r)
		}
	}
}

// snapshot makes the screen a frame from output time at, unless it shows what the
// frame before does; a frame of the same time as the one before replaces it (shown
// for no time). A screen in the middle of a synchronized update (?2026) is not a
// frame yet, unless final: false then.
func (p *player) snapshot(at time.Duration, final bool) bool {
	if !final && p.scr.State().SyncOutput {
		return false
	}
	g := grid.FromScreen(p.scr).Crop(p.cols, p.rows)
	if p.cur != nil && p.curAt == at {
		p.cur = nil
	}
	last := p.cur
	if last == nil {
		last = p.given
	}
	if last != nil && last.Equal(g) {
		return true
	}
	p.give()
	p.cur, p.curAt = g, at
	return true
}

// give hands the pending frame to the sink.
func (p *player) give() {
	if p.cur == nil || p.err != nil {
		return
	}
	p.err = p.sink.Frame(p.cur, p.curAt)
	p.given, p.cur = p.cur, nil
	p.done.Frames++
	p.done.End = max(p.done.End, p.curAt)
}

// finish gives the last frame and the end to the sink.
func (p *player) finish() {
	if p.t.Still {
		p.snapshot(0, true)
	} else {
		if !p.started {
			p.snapshot(0, true)
		}
		if p.pending {
			p.snapshot(p.pendingAt, true)
		}
	}
	p.give()
	end := p.out
	if p.t.To > 0 && p.t.To > p.lastAt && p.done.Stopped == nil && !p.t.Still {
		gap := p.t.To - p.lastAt
		if p.t.IdleLimit > 0 {
			gap = min(gap, p.t.IdleLimit)
		}
		end += time.Duration(float64(gap) / p.t.Speed)
	}
	if p.t.Still {
		end = 0
	} else {
		end = max(end, p.done.End) + p.t.Hold
	}
	p.done.End = end
	if p.err == nil {
		p.err = p.sink.End(end)
	}
}
