package export

// cast.go reads asciicast files: the header of version 2 (Corral's and asciinema 2's) or
// version 3 (asciinema 3's), event lines, resize sizes, and the lines that stop a reading.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"time"

	"corral/demo/castplay"
	"corral/ptyhost/screen"
)

// lineCap bounds one line of a recording.
const lineCap = 4 << 20

// ErrNotCast: the file is not an asciicast recording (version 2, or asciinema 3's
// version 3).
var ErrNotCast = castplay.ErrNotCast

// LineError is a line of a recording that is not an event: what came before it is
// exported.
type LineError struct {
	Line int
	Err  error
	// Cut: the line is the file's last and has no newline: a recording still being
	// written (a live run's) or one whose writer stopped mid-line.
	Cut bool
}

func (e *LineError) Error() string {
	if e.Cut {
		return fmt.Sprintf("line %d, the last, is cut short (the recording is still being written, or its writer stopped): exported what comes before it", e.Line)
	}
	return fmt.Sprintf("line %d is not a valid event (%v): exported what comes before it", e.Line, e.Err)
}

// LargestSize is the largest terminal size of the recording in r: its header's, or a
// resize event's wider or taller. A recording whose terminal grew is exported at the
// size it grew to, not cut to the size it started at.
func LargestSize(r io.Reader) (cols, rows int, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	h, err := readHeader(br)
	if err != nil && !errors.Is(err, io.EOF) {
		return 0, 0, err
	}
	cols, rows = h.Width, h.Height
	for err == nil {
		var line []byte
		if line, err = readLine(br); err != nil && !errors.Is(err, io.EOF) {
			break
		}
		if !bytes.Contains(line, []byte(`"r"`)) {
			continue
		}
		if _, kind, data, perr := parseEvent(line); perr == nil && kind == "r" {
			if c, r, ok := parseSize(data); ok {
				cols, rows = max(cols, c), max(rows, r)
			}
		}
	}
	return min(cols, screen.MaxCols), min(rows, screen.MaxRows), nil
}

// maxIdle bounds a header's idle_time_limit taken as a duration.
const maxIdle = 100 * 365 * 24 * time.Hour

// readHeader reads a recording's header; err is io.EOF when the header is the whole
// file.
func readHeader(br *bufio.Reader) (castplay.Header, error) { return castplay.ReadHeader(br, lineCap) }

// readLine reads one line without its newline; a line over lineCap is an error.
func readLine(br *bufio.Reader) ([]byte, error) { return castplay.ReadLine(br, lineCap) }

// parseEvent reads an event line: [seconds, "o"|"r"|…, "data"].
func parseEvent(line []byte) (at time.Duration, kind, data string, err error) {
	var ev []json.RawMessage
	if err := json.Unmarshal(line, &ev); err != nil {
		return 0, "", "", errors.New("not JSON: a truncated or corrupt line")
	}
	if len(ev) != 3 {
		return 0, "", "", fmt.Errorf("%d fields, not 3", len(ev))
	}
	var sec float64
	if json.Unmarshal(ev[0], &sec) != nil || sec < 0 || math.IsInf(sec, 0) || math.IsNaN(sec) {
		return 0, "", "", errors.New("its time is not a number of seconds")
	}
	if json.Unmarshal(ev[1], &kind) != nil || json.Unmarshal(ev[2], &data) != nil {
		return 0, "", "", errors.New("its kind or data is not a string")
	}
	return time.Duration(sec * float64(time.Second)), kind, data, nil
}

// parseSize reads a resize event's "COLSxROWS", at most a screen's largest size.
func parseSize(s string) (cols, rows int, ok bool) {
	c, r, ok := castplay.ParseSize(s)
	return min(c, screen.MaxCols), min(r, screen.MaxRows), ok
}
