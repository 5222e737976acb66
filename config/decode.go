package config

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// decoder maps the tables of a corral.toml onto a File, one table at a time in file
// order, noting every problem with its line and going on (so a file with several
// mistakes is fixed in one pass).
type decoder struct {
	path  string
	dir   string // relative paths in the file are relative to it
	f     *File
	names map[string]int // run name → line of the run that took it
	errs  []error
}

// note keeps a problem and lets decoding go on.
func (d *decoder) note(err error) {
	if err != nil {
		d.errs = append(d.errs, err)
	}
}

func (d *decoder) table(t table) error {
	switch {
	case t.key == nil:
		return d.topLevel(t)
	case !t.array && slices.Equal(t.key, []string{"defaults"}):
		return d.defaults(t)
	case !t.array && slices.Equal(t.key, []string{"keys"}):
		return d.keys(t)
	case !t.array && slices.Equal(t.key, []string{"ui"}):
		return d.ui(t)
	case !t.array && slices.Equal(t.key, []string{"notify"}):
		return d.notify(t)
	case !t.array && slices.Equal(t.key, []string{"worktree"}):
		return d.worktree(t)
	case !t.array && slices.Equal(t.key, []string{"web"}):
		return d.web(t)
	case t.array && slices.Equal(t.key, []string{"run"}):
		return d.run(t)
	case !t.array && slices.Equal(t.key, []string{"run", "env"}):
		return d.runEnv(t)
	case slices.Equal(t.key, []string{"run"}):
		return d.fail(t.line, "", "", errors.New("want [[run]] (one table per run), not [run]"))
	case t.array && slices.Equal(t.key, []string{"host"}):
		return d.host(t)
	case slices.Equal(t.key, []string{"host"}):
		return d.fail(t.line, "", "", errors.New("want [[host]] (one table per host), not [host]"))
	}
	msg := "unknown table " + tableName(t.key, t.array)
	known := map[string]string{"defaults": "[defaults]", "keys": "[keys]", "ui": "[ui]", "notify": "[notify]",
		"worktree": "[worktree]", "web": "[web]", "run": "[[run]]", "run.env": "[run.env]", "host": "[[host]]"}
	if s := closest(strings.Join(t.key, "."), slices.Sorted(maps.Keys(known))); s != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", known[s])
	}
	return d.fail(t.line, "", "", errors.New(msg))
}

// topLevel: corral.toml keeps every key in a table.
func (d *decoder) topLevel(t table) error {
	for _, p := range t.pairs {
		k := p.key[0]
		msg := "unknown key at the top level"
		switch {
		case k == "defaults" || k == "keys" || k == "ui" || k == "notify" || k == "worktree" || k == "web":
			msg = fmt.Sprintf("write it as a [%s] table", k)
		case k == "run":
			msg = "write each run as a [[run]] table"
		case k == "host":
			msg = "write each host as a [[host]] table"
		case k == "worktree_root":
			msg = "write it as root in a [worktree] table"
		case defaultsKeys[k] != nil:
			msg += " (it belongs in [defaults])"
		case runKeys[k] != nil:
			msg += " (it belongs in a [[run]] table)"
		case uiKeys[k] != nil:
			msg += " (it belongs in [ui])"
		}
		d.note(d.fail(p.line, "", dotted(p.key), errors.New(msg)))
	}
	return nil
}

func (d *decoder) defaults(t table) error {
	fd := &d.f.Defaults
	fd.Set = map[string]bool{}
	for _, p := range t.pairs {
		set := defaultsKeys[p.key[0]]
		if len(p.key) == 1 && p.key[0] == "worktree_root" {
			d.note(d.fail(p.line, "[defaults]", p.key[0], errors.New("write it as root in a [worktree] table")))
			continue
		}
		if len(p.key) != 1 || set == nil {
			d.note(unknownKey(d, p, "[defaults]", defaultsKeys))
			continue
		}
		if err := set(d, fd, p.val); err != nil {
			d.note(d.fail(p.line, "[defaults]", p.key[0], err))
			continue
		}
		fd.Set[p.key[0]] = true
	}
	return nil
}

// keys reads [keys]: action = "key" or ["key", …]. An empty array unbinds the
// action. Which actions exist is the UI's business.
func (d *decoder) keys(t table) error {
	d.f.Keys, d.f.KeyLines = map[string][]string{}, map[string]int{}
	for _, p := range t.pairs {
		if len(p.key) != 1 || p.key[0] == "" {
			d.note(d.fail(p.line, "[keys]", dotted(p.key), errors.New("want an action name, like cancel")))
			continue
		}
		ks, err := asStrings(p.val, true)
		if err != nil {
			d.note(d.fail(p.line, "[keys]", p.key[0], err))
			continue
		}
		d.f.Keys[p.key[0]] = ks
		d.f.KeyLines[p.key[0]] = p.line
	}
	return nil
}

// uiKeys are the keys of [ui].
var uiKeys = map[string]func(u *FileUI, v value) error{
	"mouse": func(u *FileUI, v value) (err error) {
		u.Mouse, err = asBool(v)
		return err
	},
	keyWindowSize: func(u *FileUI, v value) (err error) {
		u.WindowSize, err = asChoice(v, WindowLatest, WindowSmallest, WindowLargest)
		return err
	},
}

// ui reads [ui]: the terminal UI's preferences.
func (d *decoder) ui(t table) error {
	for _, p := range t.pairs {
		set := uiKeys[p.key[0]]
		if len(p.key) != 1 || set == nil {
			d.note(unknownKey(d, p, "[ui]", uiKeys))
			continue
		}
		if err := set(&d.f.UI, p.val); err != nil {
			d.note(d.fail(p.line, "[ui]", p.key[0], err))
		}
	}
	return nil
}

// notifyKeys are the keys of [notify].
var notifyKeys = map[string]func(n *Notify, v value) error{
	"terminal": func(n *Notify, v value) (err error) {
		n.Terminal, err = asChoice(v, NotifyOSC9, NotifyOSC777, NotifyOff)
		return err
	},
	"command": func(n *Notify, v value) (err error) {
		n.Command, err = asText(v)
		return err
	},
	"min_interval": func(n *Notify, v value) (err error) {
		n.MinInterval, err = asDuration(v)
		return err
	},
}

// notify reads [notify]: how a user who is elsewhere is told an agent needs them.
func (d *decoder) notify(t table) error {
	d.f.Notify.Line = t.line
	for _, p := range t.pairs {
		set := notifyKeys[p.key[0]]
		if len(p.key) != 1 || set == nil {
			d.note(unknownKey(d, p, "[notify]", notifyKeys))
			continue
		}
		if err := set(&d.f.Notify, p.val); err != nil {
			d.note(d.fail(p.line, "[notify]", p.key[0], err))
		}
	}
	return nil
}

func unknownKey[T any](d *decoder, p pair, in string, known map[string]T) error {
	k := dotted(p.key)
	return d.fail(p.line, in, k, errors.New("unknown key"+didYouMean(k, known)))
}

// fail locates err, unless it already is located (a nested value's own line).
func (d *decoder) fail(line int, in, key string, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var at atLine
	if errors.As(err, &at) {
		line, err = at.line, at.error
	}
	return &Error{Path: d.path, Line: line, In: in, Key: key, Msg: err.Error()}
}

// resolve makes a path from the file relative to the file's directory, so a config
// checked into a repository means the same from wherever Corral is started.
func (d *decoder) resolve(p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(d.dir, p)
}

// dotted renders key parts the way the user would write them.
func dotted(parts []string) string {
	q := make([]string, len(parts))
	for i, p := range parts {
		q[i] = tomlKey(p)
	}
	return strings.Join(q, ".")
}

func tableName(key []string, array bool) string {
	if array {
		return "[[" + dotted(key) + "]]"
	}
	return "[" + dotted(key) + "]"
}
