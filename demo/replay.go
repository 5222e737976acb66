package demo

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"corral/demo/castplay"
)

// castHeaderCap bounds the header line read (castplay.Load bounds the rest).
const castHeaderCap = castplay.HeaderCap

// openCast opens a recording for reading: a regular file only (a FIFO would block
// the open, a device never ends). The path is checked before the open, which a FIFO
// would otherwise hang, and the open file again after it.
func openCast(path string) (*os.File, error) {
	if st, err := os.Stat(path); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%v)", path, st.Mode().Type())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	return f, nil
}

// CastSize reads the terminal size from an asciicast header (version 2 or 3).
func CastSize(path string) (cols, rows int, err error) {
	f, err := openCast(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	h, err := castplay.ReadHeader(bufio.NewReader(f), castHeaderCap)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, 0, fmt.Errorf("%s: %w", path, err)
	}
	return h.Width, h.Height, nil
}

// castPlay FILE [SPEED] plays an asciicast v2 recording to stdout with its timing.
// Keys (stdin in raw mode; castplay.Parse): space pauses and resumes (and starts
// again at the end), + and - double or halve the speed, ←/→ jump 10 s back or on,
// Home/End to the start or the end, q stops. The progress ("0:12 / 1:30 ×2 · paused")
// is the terminal's title, which Corral shows in the pane's. A resize event ("r",
// "COLSxROWS") sets the size of the terminal it plays on, before the output that
// follows it: under corral replay the run has a fixed size (runs.Spec.FixedSize) and
// its screen takes that size up. A seek back replays from the start on a reset screen.
func castPlay(args []string) int {
	if len(args) == 0 {
		return 2
	}
	speed := 1.0
	if len(args) > 1 {
		if s, err := strconv.ParseFloat(args[1], 64); err == nil && s > 0 {
			speed = s
		}
	}
	f, err := openCast(args[0])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer f.Close()
	ix, err := castplay.Load(f)
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", args[0], err)
		return 1
	}
	restore := makeRaw(0)
	defer restore()
	p := &player{f: f, ix: ix, pos: castplay.NewPosition(ix, speed, time.Now()), keys: make(chan []byte, 16),
		out: bufio.NewWriterSize(os.Stdout, 64<<10), cols: ix.Cols, rows: ix.Rows}
	go p.readKeys()
	return p.run()
}

type player struct {
	f          *os.File
	ix         *castplay.Index
	pos        *castplay.Position
	keys       chan []byte
	held       []byte // an escape sequence cut by a read
	out        *bufio.Writer
	cols, rows int    // the terminal's size now
	title      string // the progress last shown
	retitle    bool   // the recording set a title of its own: show ours again
}

func (p *player) readKeys() {
	for {
		buf := make([]byte, 64)
		n, err := os.Stdin.Read(buf)
		if n > 0 {
			p.keys <- buf[:n]
		}
		if err != nil {
			close(p.keys)
			return
		}
	}
}

// run plays until q or the end of stdin, redrawing the progress four times a second.
func (p *player) run() int {
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	var timer *time.Timer
	for {
		now := time.Now()
		from, to, wait := p.pos.Due(now)
		p.play(from, to)
		p.showProgress(now)
		p.out.Flush()
		var due <-chan time.Time
		if wait > 0 {
			timer = time.NewTimer(wait)
			due = timer.C
		}
		select {
		case <-due:
		case <-tick.C:
		case b, ok := <-p.keys:
			if !ok || p.handle(b, time.Now()) {
				return 0
			}
		}
		if timer != nil {
			timer.Stop()
		}
	}
}

// handle runs the commands in a read of stdin; true on q.
func (p *player) handle(b []byte, now time.Time) (quit bool) {
	cmds, rest := castplay.Parse(append(p.held, b...))
	p.held = append([]byte(nil), rest...)
	for _, c := range cmds {
		at := p.pos.At(now)
		switch c {
		case castplay.CmdQuit:
			return true
		case castplay.CmdPause:
			if p.pos.Toggle(now) {
				p.seek(0, now)
			}
		case castplay.CmdFaster:
			p.pos.Faster(now)
		case castplay.CmdSlower:
			p.pos.Slower(now)
		case castplay.CmdBack:
			p.seek(at-castplay.Step, now)
		case castplay.CmdForward:
			p.seek(at+castplay.Step, now)
		case castplay.CmdStart:
			p.seek(0, now)
		case castplay.CmdEnd:
			p.seek(p.ix.Total(), now)
		}
	}
	return false
}

// seek plays what lies between here and target at once; back means a reset screen
// (RIS) at the recording's first size, and everything from the start.
func (p *player) seek(target time.Duration, now time.Time) {
	from, to, reset := p.pos.Seek(target, now)
	if reset {
		p.out.WriteString("\x1bc")
		p.resize(uint16(p.ix.Cols), uint16(p.ix.Rows))
		p.retitle = true
	}
	p.play(from, to)
}

// play writes events [from, to): output as it is, resizes in their place.
func (p *player) play(from, to int) {
	p.ix.Read(p.f, from, to, func(kind, data string) {
		switch kind {
		case "o":
			p.out.WriteString(data)
			p.retitle = p.retitle || strings.Contains(data, "\x1b]")
		case "r":
			if cols, rows, ok := parseCastSize(data); ok {
				p.resize(cols, rows)
			}
		}
	})
}

func (p *player) resize(cols, rows uint16) {
	if int(cols) == p.cols && int(rows) == p.rows {
		return
	}
	p.out.Flush() // the output before the resize is drawn at the old size
	setTermSize(0, cols, rows)
	p.cols, p.rows = int(cols), int(rows)
}

// showProgress sets the terminal's title to the progress when it changed.
func (p *player) showProgress(now time.Time) {
	t := p.pos.Progress(now)
	if t == p.title && !p.retitle {
		return
	}
	p.title, p.retitle = t, false
	p.out.WriteString("\x1b]2;" + t + "\x07")
}

// parseCastSize reads a resize event's "COLSxROWS" as a terminal size.
func parseCastSize(s string) (cols, rows uint16, ok bool) {
	c, r, ok := castplay.ParseSize(s)
	if !ok || c > math.MaxUint16 || r > math.MaxUint16 {
		return 0, 0, false
	}
	return uint16(c), uint16(r), true
}

// PlayedCast is the recording a run of the player (Child("cast-play", FILE, SPEED))
// plays, "" for any other run.
func PlayedCast(argv []string) string {
	if len(argv) >= 3 && argv[1] == "cast-play" {
		return argv[2]
	}
	return ""
}
