// Package filetail reads the end of a bounded file: one that, when full, is moved
// aside as NAME.1 and begun again (a run's transcript, the event log). What was
// written last is then split over two files, and a reader that wants the last n
// bytes reads them from both.
package filetail

import (
	"bytes"
	"io"
	"os"
)

// Rotated is the suffix of the file before the current one: NAME.1.
const Rotated = ".1"

// Read is the last n bytes of the file name, opened with open: when that file holds
// fewer (it was begun lately), the end of the one before it (name+Rotated) comes
// first, up to the rest of n. With atLine, a file read from within starts after its
// first newline (the line cut at the start would read wrong), unless it has none.
//
// The error is the current file's (a missing one is an error too, after the one
// before it was read as if the current were empty); the one before it is read only
// as far as it can be, its errors dropped.
func Read(open func(name string) (*os.File, error), name string, n int64, atLine bool) ([]byte, error) {
	b, whole, err := end(open, name, n, atLine)
	if err != nil {
		b, whole = nil, true
	}
	if short := n - int64(len(b)); whole && short > 0 {
		if older, _, oerr := end(open, name+Rotated, short, atLine); oerr == nil && len(older) > 0 {
			b = append(older, b...)
		}
	}
	return b, err
}

// end is the last n bytes of one file, and whether that is the whole file.
func end(open func(string) (*os.File, error), name string, n int64, atLine bool) (_ []byte, whole bool, _ error) {
	f, err := open(name)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, false, err
	}
	off := max(st.Size()-n, 0)
	b, err := io.ReadAll(io.NewSectionReader(f, off, st.Size()-off))
	if err != nil {
		return nil, false, err
	}
	if atLine && off > 0 {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		}
	}
	return b, off == 0, nil
}
