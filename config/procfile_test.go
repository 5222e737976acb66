package config

import (
	"errors"
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
