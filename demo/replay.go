package demo

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"
)

// castHeaderCap bounds the header line read; castLineCap any event line. A
// recording is read a line at a time, so neither a huge file nor an endless one
// (corral replay /dev/zero grew to 4.9 GB, issue 15 item 4) is ever held whole.
const (
	castHeaderCap = 64 << 10
	castLineCap   = 4 << 20
)

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

// CastSize reads the terminal size from an asciicast v2 header.
func CastSize(path string) (cols, rows int, err error) {
	f, err := openCast(path)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	line, err := bufio.NewReader(io.LimitReader(f, castHeaderCap)).ReadBytes('\n')
	if err != nil && len(line) == 0 {
		return 0, 0, fmt.Errorf("%s: empty recording", path)
	}
	var h struct{ Version, Width, Height int }
	if err := json.Unmarshal(line, &h); err != nil || h.Version != 2 || h.Width <= 0 || h.Height <= 0 {
		return 0, 0, fmt.Errorf("%s: not an asciicast v2 recording", path)
	}
	return h.Width, h.Height, nil
}

// castPlay FILE [SPEED] plays an asciicast v2 recording to stdout with its timing.
// Keys (stdin in raw mode): space pauses and resumes, + and - double or halve the
// speed, q stops. A resize event ("r", "COLSxROWS") sets the size of the terminal it
// plays on, before the output that follows it: under corral replay the run has a
// fixed size (runs.Spec.FixedSize) and its screen takes that size up.
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
	restore := makeRaw(0)
	defer restore()
	p := &player{speed: speed, keys: make(chan byte, 16)}
	go p.readKeys()
	return p.play(bufio.NewScanner(f))
}

type player struct {
	speed  float64
	paused bool
	keys   chan byte
}

func (p *player) readKeys() {
	buf := make([]byte, 16)
	for {
		n, err := os.Stdin.Read(buf)
		for _, b := range buf[:n] {
			p.keys <- b
		}
		if err != nil {
			close(p.keys)
			return
		}
	}
}

func (p *player) play(sc *bufio.Scanner) int {
	sc.Buffer(nil, castLineCap)
	sc.Scan() // header
	last := 0.0
	for sc.Scan() {
		var ev [3]any
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		at, _ := ev[0].(float64)
		kind, _ := ev[1].(string)
		data, _ := ev[2].(string)
		if !p.wait(time.Duration((at - last) / p.speed * float64(time.Second))) {
			return 0
		}
		last = at
		switch kind {
		case "o":
			os.Stdout.WriteString(data)
		case "r":
			if cols, rows, ok := parseCastSize(data); ok {
				setTermSize(0, cols, rows)
			}
		}
	}
	fmt.Print("\r\n\x1b[2m[end of recording]\x1b[0m\r\n")
	for k := range p.keys { // stay on screen until q
		if k == 'q' {
			return 0
		}
	}
	return 0
}

// wait sleeps d (scaled by the speed when it changes), handling keys; false on q.
func (p *player) wait(d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		left := time.Until(deadline)
		if !p.paused && left <= 0 {
			return true
		}
		timer := time.NewTimer(max(left, 0))
		if p.paused {
			timer.Reset(time.Hour)
		}
		select {
		case <-timer.C:
		case k, ok := <-p.keys:
			timer.Stop()
			if !ok || k == 'q' {
				return false
			}
			deadline = p.key(k, deadline)
		}
	}
}

func (p *player) key(k byte, deadline time.Time) time.Time {
	left := time.Until(deadline)
	switch k {
	case ' ':
		p.paused = !p.paused
	case '+':
		p.speed *= 2
		left /= 2
	case '-':
		p.speed /= 2
		left *= 2
	}
	return time.Now().Add(left)
}

// parseCastSize reads a resize event's "COLSxROWS".
func parseCastSize(s string) (cols, rows uint16, ok bool) {
	c, r, found := strings.Cut(s, "x")
	if !found {
		return 0, 0, false
	}
	ci, err1 := strconv.ParseUint(c, 10, 16)
	ri, err2 := strconv.ParseUint(r, 10, 16)
	if err1 != nil || err2 != nil || ci == 0 || ri == 0 {
		return 0, 0, false
	}
	return uint16(ci), uint16(ri), true
}
