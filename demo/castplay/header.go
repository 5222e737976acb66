package castplay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ErrNotCast: the file is not an asciicast recording of version 2 (Corral's and
// asciinema 2's) or version 3 (asciinema 3's).
var ErrNotCast = errors.New("not an asciicast recording (version 2 or 3)")

// Header is what Corral reads of a recording's first line: its version, its terminal
// size (version 3 keeps it in "term"), the pause limit it asks of its players, and the
// line as read.
type Header struct {
	Version       int
	Width, Height int
	IdleTimeLimit float64 `json:"idle_time_limit"`
	Term          struct{ Cols, Rows int }
	Line          []byte `json:"-"`
}

// Intervals: the events' times are the time since the event before (version 3), not
// since the start (version 2).
func (h Header) Intervals() bool { return h.Version == 3 }

// ReadHeader reads a recording's first line, at most limit bytes; err is io.EOF when
// the header is the whole file.
func ReadHeader(br *bufio.Reader, limit int) (Header, error) {
	line, err := ReadLine(br, limit)
	h, herr := ParseHeader(line)
	h.Line = line
	switch {
	case herr == nil:
		return h, err
	case err != nil && !errors.Is(err, io.EOF):
		return h, err
	case len(line) == 0 && errors.Is(err, io.EOF):
		// A run's recording just started: its header is still in the writer's buffer.
		return h, fmt.Errorf("%w: the file is empty", ErrNotCast)
	}
	return h, herr
}

// ParseHeader reads the first line of an asciicast of version 2 or 3.
func ParseHeader(line []byte) (Header, error) {
	line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // a byte order mark some editors add
	var h Header
	if len(line) == 0 || json.Unmarshal(line, &h) != nil {
		return h, ErrNotCast
	}
	if h.Version == 3 {
		h.Width, h.Height = h.Term.Cols, h.Term.Rows
	}
	switch {
	case h.Version == 0:
		return h, ErrNotCast
	case h.Version != 2 && h.Version != 3:
		return h, fmt.Errorf("%w: its header says version %d", ErrNotCast, h.Version)
	case h.Width <= 0 || h.Height <= 0:
		return h, fmt.Errorf("%w: its header has no terminal size", ErrNotCast)
	}
	return h, nil
}

// ReadLine reads one line without its newline; a line over limit is an error.
func ReadLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		part, err := br.ReadSlice('\n')
		line = append(line, part...)
		if len(line) > limit {
			return nil, fmt.Errorf("a line over %d bytes", limit)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		return line, err
	}
}

// ParseSize reads a resize event's "COLSxROWS": two positive numbers.
func ParseSize(s string) (cols, rows int, ok bool) {
	c, r, found := strings.Cut(s, "x")
	ci, err1 := strconv.Atoi(c)
	ri, err2 := strconv.Atoi(r)
	if !found || err1 != nil || err2 != nil || ci <= 0 || ri <= 0 {
		return 0, 0, false
	}
	return ci, ri, true
}
