package config

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalid is wrapped by every *Error: the file was read but is not a valid
// corral.toml or Procfile. A missing file wraps os.ErrNotExist instead.
var ErrInvalid = errors.New("invalid config")

// ErrForeignStateDir: a state dir, or the directory one would be created in, owned by
// another user. Its owner could plant symlinks and records that a root Corral would
// follow and act on. Checked on Unix.
var ErrForeignStateDir = errors.New("state dir not owned by you")

// ErrUnsafeStateDirParent: a new state dir would be made in a directory that a group or
// other users can write into (and that is not sticky, as /tmp is): they could swap it
// for a link or a directory of their own between its creation and its use. Unix.
var ErrUnsafeStateDirParent = errors.New("state dir parent writable by others")

// Error is one problem in a config file or Procfile, located so the user can go
// straight to it: "corral.toml:12: run "build": key "pty": want true or false".
type Error struct {
	Path string // the file as the user named it
	Line int    // 1-based; 0 when the problem has no single line
	In   string // "[defaults]", "[keys]", `run "build"`, `run #2`, or "" at the top level
	Key  string // the key at fault, dotted for nested ones ("env.PATH"); "" for a whole table
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Path)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.In != "" {
		b.WriteString(e.In + ": ")
	}
	if e.Key != "" {
		fmt.Fprintf(&b, "key %q: ", e.Key)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap makes errors.Is(err, ErrInvalid) hold for every config problem.
func (e *Error) Unwrap() error { return ErrInvalid }

// maxReported is how many problems one report lists.
const maxReported = 20

// Errors are every problem found in one file, in file order: one per line when
// printed, at most maxReported of them and a count of the rest.
type Errors []error

func (es Errors) Error() string {
	lines := make([]string, 0, min(len(es), maxReported)+1)
	for i, e := range es {
		if i == maxReported {
			lines = append(lines, fmt.Sprintf("… and %d more", len(es)-maxReported))
			break
		}
		lines = append(lines, e.Error())
	}
	return strings.Join(lines, "\n")
}

// Unwrap lets errors.As find the first *Error.
func (es Errors) Unwrap() []error { return es }

// joinErrors is the one error, or all of them.
func joinErrors(es []error) error {
	if len(es) == 1 {
		return es[0]
	}
	return Errors(es)
}
