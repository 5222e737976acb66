package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// CORRAL_CHILD=1 in a user's environment (it marks the test binary's child programs)
// does not break corral run.
func TestChildMarkerInUserEnvironment(t *testing.T) {
	cmd := corral(t, "run", "--", "echo", "hi")
	cmd.Env = append(cmd.Env, "CORRAL_CHILD=1")
	if r := run(t, cmd); r.code != 0 || r.stdout != "hi\n" {
		t.Fatalf("%+v", r)
	}
}

// A bad [keys] binding is reported at its line, by corral check and at start.
func TestKeysErrorNamesItsLine(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "corral.toml")
	os.WriteFile(cfg, []byte("[keys]\ncancel = \"x\"\nfrobnicate = \"f\"\n"), 0o644)
	r := run(t, corral(t, "check", cfg))
	if r.code != 2 || !strings.Contains(r.stderr, "corral.toml:3: [keys] frobnicate: unknown action") {
		t.Fatalf("%+v", r)
	}
}
