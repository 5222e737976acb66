package config

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestParseService(t *testing.T) {
	doc := `[[run]]
name = "db"
cmd = "postgres"
restart = "on-failure"
backoff = "500ms..10s"
max_restarts = 3
restart_window = "2m"
ready = { tcp = "127.0.0.1:5432", period = "2s", initial_delay = "1s", failure = 5 }
alive = { exec = "pg_isready -h 127.0.0.1", timeout = "3s" }

[[run]]
name = "api"
cmd = "api"
ready = { http = "http://127.0.0.1:8080/health" }
`
	f, err := Parse("corral.toml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	db, api := f.Runs[0], f.Runs[1]
	if db.Restart != RestartOnFailure || db.Backoff != 500*time.Millisecond || db.BackoffMax != 10*time.Second ||
		db.MaxRestarts != 3 || !db.MaxRestartsSet || db.RestartWindow != 2*time.Minute {
		t.Fatalf("db's restart: %+v", db)
	}
	want := Probe{Kind: ProbeTCP, Target: "127.0.0.1:5432", Period: 2 * time.Second, InitialDelay: time.Second, Failure: 5, Line: 8}
	if db.Ready == nil || *db.Ready != want {
		t.Fatalf("db's ready = %+v, want %+v", db.Ready, want)
	}
	if db.Alive == nil || db.Alive.Kind != ProbeExec || db.Alive.Timeout != 3*time.Second {
		t.Fatalf("db's alive = %+v", db.Alive)
	}
	if api.Ready == nil || api.Ready.Kind != ProbeHTTP || api.Alive != nil || api.Restart != "" {
		t.Fatalf("api: %+v", api)
	}
}

func TestParseServiceBad(t *testing.T) {
	const run = "[[run]]\nname = \"db\"\ncmd = \"postgres\"\n"
	cases := []struct{ name, doc, key, msg string }{
		{"unknown probe kind", `ready = { grpc = "127.0.0.1:1" }`, "ready", `unknown probe key "grpc"`},
		{"no probe kind", `ready = { period = "1s" }`, "ready", "no probe kind"},
		{"two kinds", `ready = { tcp = "127.0.0.1:1", http = "http://x/" }`, "ready", "one kind"},
		{"bad regex", `ready = { log = "listening on (" }`, "ready", "regular expression"},
		{"url not http", `ready = { http = "ftp://127.0.0.1/" }`, "ready", "http:// or https:// URL"},
		{"tcp without port", `alive = { tcp = "127.0.0.1" }`, "alive", "host:port"},
		{"negative period", `ready = { tcp = "127.0.0.1:1", period = "-1s" }`, "ready", "0 or more"},
		{"zero failure", `ready = { tcp = "127.0.0.1:1", failure = 0 }`, "ready", "from 1 to 1000"},
		{"probe not a table", `ready = "tcp://x"`, "ready", "a table like"},
		{"bad policy", `restart = "sometimes"`, "restart", `"no" or "on-failure" or "always"`},
		{"bad backoff", "restart = \"always\"\nbackoff = \"soon\"", "backoff", "like \"1s..30s\""},
		{"backoff range upside down", "restart = \"always\"\nbackoff = \"30s..1s\"", "backoff", "longest delay after the first"},
		{"backoff without restart", `backoff = "1s"`, "backoff", `set restart = "on-failure" or "always" too`},
		{"negative max_restarts", "restart = \"always\"\nmax_restarts = -1", "max_restarts", "from 0"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("corral.toml", []byte(run+c.doc+"\n"))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v, want an *Error", err)
			}
			if e.Line < 4 || e.Key != c.key || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("got line %d key %q msg %q; want line ≥ 4, key %q, msg containing %q", e.Line, e.Key, e.Msg, c.key, c.msg)
			}
		})
	}
}
