package config

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestEffectiveRoundTrips: the printed config parses back to the same values.
func TestEffectiveRoundTrips(t *testing.T) {
	docs := map[string]string{
		"full example": fullExample,
		"empty":        "",
		"off and derived": "[defaults]\nno_output_timeout = \"0\"\ntimeout = \"0\"\n" +
			"[[run]]\nname = \"odd \\\"name\\\" ü\"\ncmd = \"printf '\\\\a\\t\\u0001'\"\nenv = { \"a.b\" = \"\\u007f\" }\n",
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			f, err := Parse("corral.toml", []byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			checkRoundTrip(t, f)
		})
	}
}

func checkRoundTrip(t *testing.T, f *File) {
	t.Helper()
	text := f.Effective(Default())
	g, err := Parse(f.Path, []byte(text))
	if err != nil {
		t.Fatalf("effective config does not parse: %v\n%s", err, text)
	}
	if a, b := f.Apply(Default()), g.Apply(Default()); a != b {
		t.Errorf("defaults changed:\n%+v\n%+v\n%s", a, b, text)
	}
	if len(f.Keys) > 0 && !reflect.DeepEqual(f.Keys, g.Keys) {
		t.Errorf("keys changed: %v → %v\n%s", f.Keys, g.Keys, text)
	}
	if len(f.Runs) != len(g.Runs) {
		t.Fatalf("%d runs became %d\n%s", len(f.Runs), len(g.Runs), text)
	}
	if len(f.Hosts) != len(g.Hosts) {
		t.Fatalf("%d hosts became %d\n%s", len(f.Hosts), len(g.Hosts), text)
	}
	for i := range f.Hosts {
		if a, b := f.Hosts[i], g.Hosts[i]; a.Name != b.Name || a.SSH != b.SSH || a.Corral != b.Corral || a.StateDir != b.StateDir {
			t.Errorf("host %d changed:\n%+v\n%+v\n%s", i, a, b, text)
		}
	}
	for i := range f.Runs {
		a, b := f.Runs[i], g.Runs[i]
		a.Line, b.Line, a.StopSignalLine, b.StopSignalLine = 0, 0, 0, 0 // positions, not values
		if !reflect.DeepEqual(a, b) {
			t.Errorf("run %d changed:\n%+v\n%+v\n%s", i, a, b, text)
		}
	}
}

func TestEffectiveShowsDefaults(t *testing.T) {
	text := (*File)(nil).Effective(Default())
	for _, want := range []string{`grace = "5s"`, `finished_ttl = "30m"`, "output_cap = 200000",
		`reconcile_policy = "terminate"`, `escape_policy = "own"`} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %s in\n%s", want, text)
		}
	}
	if _, err := Parse("corral.toml", []byte(text)); err != nil {
		t.Errorf("built-in defaults do not parse back: %v", err)
	}
}

// log_ttl is shown by the effective config, read from a file and applied; "0s" keeps
// logs for ever.
func TestLogTTL(t *testing.T) {
	text := (*File)(nil).Effective(Default())
	if !strings.Contains(text, `log_ttl = "336h"`) {
		t.Errorf("no log_ttl of two weeks in\n%s", text)
	}
	for in, want := range map[string]time.Duration{`"48h"`: 48 * time.Hour, `"0s"`: 0} {
		f, err := Parse("corral.toml", []byte("[defaults]\nlog_ttl = "+in+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		if got := f.Apply(Default()).LogTTL; got != want {
			t.Errorf("log_ttl = %s: %v", in, got)
		}
	}
}
