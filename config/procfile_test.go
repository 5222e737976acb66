package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseProcfileGood(t *testing.T) {
	doc := "# services\nweb: bundle exec rails s -b 0.0.0.0:3000\r\n\n  worker:sidekiq -q a:b  \nclock_2: ./clock\n"
	got, err := ParseProcfile("Procfile", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := []RunEntry{
		{Line: 2, Name: "web", Cmd: "bundle exec rails s -b 0.0.0.0:3000", Autostart: true},
		{Line: 4, Name: "worker", Cmd: "sidekiq -q a:b", Autostart: true},
		{Line: 5, Name: "clock_2", Cmd: "./clock", Autostart: true},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}
}

func TestParseProcfileBad(t *testing.T) {
	cases := []struct {
		name, doc string
		line      int
		msg       string
	}{
		{"no colon", "web: ok\nnot a process line\n", 2, `want "name: command"`},
		{"bad name", "\n\nmy web: rails s\n", 3, "letters, digits"},
		{"empty name", ": rails s\n", 1, "letters, digits"},
		{"no command", "web:   \n", 1, "no command"},
		{"duplicate", "web: a\nweb: b\n", 2, "taken by line 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseProcfile("Procfile", []byte(c.doc))
			var e *Error
			if !errors.As(err, &e) || e.Line != c.line || !strings.Contains(e.Msg, c.msg) {
				t.Fatalf("err = %v, want line %d with %q", err, c.line, c.msg)
			}
			if !strings.HasPrefix(err.Error(), "Procfile:") {
				t.Errorf("err = %q, want it to start with the file name", err)
			}
		})
	}
}

// A Procfile's runs get the .env beside it, their own PORT (base + 100 × index) and
// the Procfile's directory, as under foreman.
func TestLoadProcfileEnvAndPort(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "Procfile"), []byte("web: bin/web\nworker: bin/work\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".env"), []byte("# db\nexport DB_URL='postgres://x'\nGREETING=\"a\\nb\"\nPORT=6000\nTRAIL=v # note\n"), 0o644)
	es, err := LoadProcfile(filepath.Join(dir, "Procfile"))
	if err != nil || len(es) != 2 {
		t.Fatalf("%+v %v", es, err)
	}
	if es[0].Env["PORT"] != "6000" || es[1].Env["PORT"] != "6100" || es[1].Env["DB_URL"] != "postgres://x" ||
		es[0].Env["GREETING"] != "a\nb" || es[0].Env["TRAIL"] != "v" || es[0].Cwd != dir {
		t.Errorf("%+v", es)
	}
	os.WriteFile(filepath.Join(dir, ".env"), []byte("OK=1\nnot a pair\n"), 0o644)
	if _, err := LoadProcfile(filepath.Join(dir, "Procfile")); err == nil || !strings.Contains(err.Error(), ".env:2") {
		t.Errorf("bad .env line: %v", err)
	}
}
