// Package castplay is what corral replay knows about a recording: where each event of
// an asciicast file (version 2 or 3) is and when it happens (Index), where playback is and where a
// seek lands (Position), and the keys of the player (keys.go). It imports nothing of
// Corral's: the player (demo's cast-play child) and the UI, which sends it the keys,
// both use it.
package castplay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"
)

// HeaderCap bounds the header line read; LineCap any event line. A recording is read
// a line at a time, so neither a huge file nor an endless one (corral replay /dev/zero
// grew to 4.9 GB) is ever held whole.
const (
	HeaderCap = 64 << 10
	LineCap   = 4 << 20
)

// Event is one event of a recording: its time, and where its line is in the file.
type Event struct {
	At       time.Duration
	Off, Len int64 // the line, its newline excluded
}

// Index is a recording's size and its events in order. It holds no event's data: a
// seek reads the lines it needs again (Read), so a long recording costs 24 bytes an
// event.
type Index struct {
	Cols, Rows int
	Events     []Event
}

// Total is the recording's length: the time of its last event.
func (ix *Index) Total() time.Duration {
	if len(ix.Events) == 0 {
		return 0
	}
	return ix.Events[len(ix.Events)-1].At
}

// Load reads a recording's header and indexes its events. Lines that do not parse
// (and version 3's comments) are skipped, as the player always did; a time going
// backwards is taken as the previous one, so the events stay in order.
func Load(r io.Reader) (*Index, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	h, err := ReadHeader(br, HeaderCap)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	ix := &Index{Cols: h.Width, Rows: h.Height}
	off := int64(len(h.Line)) + 1
	for err == nil {
		var line []byte
		line, err = ReadLine(br, LineCap)
		if len(line) > 0 {
			if at, ok := eventTime(line); ok {
				if h.Intervals() {
					at += ix.Total()
				}
				at = max(at, ix.Total())
				ix.Events = append(ix.Events, Event{At: at, Off: off, Len: int64(len(line))})
			}
		}
		off += int64(len(line)) + 1
	}
	if errors.Is(err, io.EOF) {
		return ix, nil
	}
	return ix, err
}

// eventTime reads the time of an event line, [seconds, "o"|"r"|…, data], from its
// first field only: the line is decoded whole when it is played (Read), and indexing
// a 16 MiB recording with a full decode of each line took 3× as long.
func eventTime(line []byte) (time.Duration, bool) {
	line = bytes.TrimLeft(line, " \t")
	if len(line) == 0 || line[0] != '[' || line[len(line)-1] != ']' {
		return 0, false
	}
	num, _, ok := bytes.Cut(line[1:], []byte(","))
	sec, err := strconv.ParseFloat(string(bytes.TrimSpace(num)), 64)
	if !ok || err != nil || sec < 0 || math.IsInf(sec, 0) || math.IsNaN(sec) {
		return 0, false
	}
	return time.Duration(sec * float64(time.Second)), true
}

// eventData reads the kind and data of an indexed event line. Only the data string is
// handed to the JSON decoder: decoding the whole line as [3]any made a seek through a
// 16 MiB recording cost twice as much.
func eventData(line []byte) (kind, data string) {
	_, rest, _ := bytes.Cut(line, []byte(","))
	rest = bytes.TrimSpace(rest)
	end := bytes.IndexByte(rest[min(1, len(rest)):], '"') + 2 // kinds are plain words
	if len(rest) < 2 || rest[0] != '"' || end < 2 {
		return "", ""
	}
	kind = string(rest[1 : end-1])
	raw := bytes.TrimSuffix(bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(rest[end:]), []byte(","))), []byte("]"))
	if json.Unmarshal(raw, &data) != nil {
		return kind, ""
	}
	return kind, data
}

// Read calls f with the kind ("o" output, "r" resize) and data of events [from, to),
// reading their lines from the file again.
func (ix *Index) Read(f io.ReaderAt, from, to int, fn func(kind, data string)) error {
	if from >= to {
		return nil
	}
	start, end := ix.Events[from].Off, ix.Events[to-1].Off+ix.Events[to-1].Len
	br := bufio.NewReaderSize(io.NewSectionReader(f, start, end-start+1), 64<<10)
	off := start
	for i := from; i < to; {
		line, err := ReadLine(br, LineCap)
		at := off
		off += int64(len(line)) + 1
		if at == ix.Events[i].Off { // a line that was not indexed is not an event
			kind, data := eventData(line)
			fn(kind, data)
			i++
		}
		if err != nil {
			if i < to {
				return fmt.Errorf("recording changed while playing: %w", err)
			}
			return nil
		}
	}
	return nil
}
