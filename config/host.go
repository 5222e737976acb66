package config

import (
	"errors"
	"fmt"
	"strings"
)

// LocalHost is the name this machine's server goes by among several hosts; no
// [[host]] can take it.
const LocalHost = "local"

// HostEntry is one [[host]] table: a machine whose corral server Corral reaches
// over OpenSSH (no listener of Corral's own), its runs listed and driven beside this machine's.
//
//	[[host]]
//	name = "gpu"                      # as the UI and --host name it
//	ssh = "me@gpu.lan"                # the ssh destination (an alias of ~/.ssh/config too)
//	corral = "/opt/corral/bin/corral" # corral there, when not on its PATH
//	state_dir = "/data/corral"        # its state dir, when not its default
type HostEntry struct {
	Line     int // of its [[host]] header, for messages
	Name     string
	SSH      string
	Corral   string // "" for corral on the remote PATH
	StateDir string // "" for the remote's default; a path there, not resolved here
}

// hostKeys are the keys of [[host]].
var hostKeys = map[string]func(h *HostEntry, v value) error{
	"name": func(*HostEntry, value) error { return nil }, // read first, by host
	"ssh": func(h *HostEntry, v value) (err error) {
		h.SSH, err = asText(v)
		if err == nil && (strings.HasPrefix(h.SSH, "-") || strings.ContainsFunc(h.SSH, isSpaceOrControl)) {
			err = fmt.Errorf("want an ssh destination (host, user@host or an alias), not %q", h.SSH)
		}
		return err
	},
	"corral": func(h *HostEntry, v value) (err error) {
		h.Corral, err = asRemotePath(v)
		return err
	},
	keyStateDir: func(h *HostEntry, v value) (err error) {
		h.StateDir, err = asRemotePath(v)
		return err
	},
}

// host reads one [[host]] table; a bad one is left out with its problems noted.
func (d *decoder) host(t table) error {
	h := HostEntry{Line: t.line}
	in := fmt.Sprintf("host #%d", len(d.f.Hosts)+1)
	n := len(d.errs)
	if i := indexKey(t.pairs, "name"); i < 0 {
		d.note(d.fail(t.line, in, "", errors.New(`missing key "name": every host needs one`)))
	} else if err := d.hostName(&h, t.pairs[i]); err != nil {
		d.note(d.fail(t.pairs[i].line, in, "name", err))
	} else {
		in = fmt.Sprintf("host %q", h.Name)
	}
	for _, p := range t.pairs {
		set := hostKeys[p.key[0]]
		if len(p.key) != 1 || set == nil {
			d.note(unknownKey(d, p, in, hostKeys))
		} else if err := set(&h, p.val); err != nil {
			d.note(d.fail(p.line, in, p.key[0], err))
		}
	}
	if len(d.errs) == n && h.SSH == "" {
		d.note(d.fail(t.line, in, "", errors.New(`missing key "ssh": the ssh destination of the host, like "me@gpu.lan"`)))
	}
	if len(d.errs) == n {
		d.f.Hosts = append(d.f.Hosts, h)
	}
	return nil
}

// hostName sets h.Name from the name key: a name, unique among the hosts, not the
// local one's.
func (d *decoder) hostName(h *HostEntry, p pair) error {
	name, err := asName(p.val)
	if err != nil {
		return err
	}
	if name == LocalHost {
		return fmt.Errorf("%q is this machine's server: name the host otherwise", LocalHost)
	}
	for _, o := range d.f.Hosts {
		if o.Name == name {
			return fmt.Errorf("%q is taken by the host on line %d", name, o.Line)
		}
	}
	h.Name = name
	return nil
}

// asRemotePath is a path on another machine: absolute, or under its home (~/…).
func asRemotePath(v value) (string, error) {
	s, err := asText(v)
	if err == nil && !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "~/") {
		err = fmt.Errorf("want an absolute path on the host, or one under its home (~/…), not %q", s)
	}
	if err == nil && strings.ContainsFunc(s, isControl) {
		err = fmt.Errorf("want a path without control characters, not %q", s)
	}
	return s, err
}

func isControl(r rune) bool        { return r < 0x20 || r == 0x7f }
func isSpaceOrControl(r rune) bool { return r == ' ' || isControl(r) }
