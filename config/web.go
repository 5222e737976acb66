package config

import (
	"errors"
	"net"
	"strconv"
	"strings"
)

// Web is the [web] table: where corral web listens when its flags do not say.
type Web struct {
	Listen string // a host name or address without a port; "" for DefaultWebListen
	Port   int    // 0 for DefaultWebPort
	Line   int    // of the [web] table, for messages
}

// The web view's defaults: this machine only, on a port of its own, so a bookmark
// (or an ssh -L forward) keeps working from one start to the next.
const (
	DefaultWebListen = "127.0.0.1"
	DefaultWebPort   = 7457
)

// Addr is the address to listen on: host:port with the defaults filled in.
func (w Web) Addr() string {
	host, port := w.Listen, w.Port
	if host == "" {
		host = DefaultWebListen
	}
	if port == 0 {
		port = DefaultWebPort
	}
	return net.JoinHostPort(host, strconv.Itoa(port))
}

// webKeys are the keys of [web].
var webKeys = map[string]func(w *Web, v value) error{
	"listen": func(w *Web, v value) error {
		s, err := asString(v)
		if err != nil {
			return err
		}
		if strings.ContainsAny(s, " /") || strings.Count(s, ":") == 1 {
			return errors.New("want a host name or address without a port (the port is its own key), like 127.0.0.1")
		}
		w.Listen = strings.Trim(s, "[]")
		return nil
	},
	"port": func(w *Web, v value) error {
		n, err := asInt(v, 1, 65535)
		w.Port = int(n)
		return err
	},
}

// web reads [web]: where the web view listens.
func (d *decoder) web(t table) error {
	d.f.Web.Line = t.line
	for _, p := range t.pairs {
		set := webKeys[p.key[0]]
		if len(p.key) != 1 || set == nil {
			d.note(unknownKey(d, p, "[web]", webKeys))
			continue
		}
		if err := set(&d.f.Web, p.val); err != nil {
			d.note(d.fail(p.line, "[web]", p.key[0], err))
		}
	}
	return nil
}
