package cliver

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// npmInstall lays out what npm install -g --prefix DIR PKG leaves: the package under
// lib/node_modules with its package.json, and bin/NAME a link to its entry point.
func npmInstall(t *testing.T, prefix, pkg, version, name, entry string) string {
	t.Helper()
	dir := filepath.Join(prefix, "lib", "node_modules", pkg)
	if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(entry)), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name": "`+pkg+`", "version": "`+version+`"}`), 0o644)
	os.WriteFile(filepath.Join(dir, entry), []byte("#!/bin/sh\n"), 0o755)
	// A dependency's package.json on the way must not be taken for the CLI's.
	os.MkdirAll(filepath.Join(dir, "node_modules", "dep"), 0o755)
	os.WriteFile(filepath.Join(dir, "node_modules", "dep", "package.json"), []byte(`{"name": "dep", "version": "9.9.9"}`), 0o644)
	bin := filepath.Join(prefix, "bin", name)
	os.MkdirAll(filepath.Dir(bin), 0o755)
	if err := os.Symlink(filepath.Join("..", "lib", "node_modules", pkg, entry), bin); err != nil {
		t.Fatal(err)
	}
	return bin
}

func TestInstalled(t *testing.T) {
	prefix := t.TempDir()
	claude := npmInstall(t, prefix, "@anthropic-ai/claude-code", "2.1.332", "claude", "bin/claude.exe")
	gemini := npmInstall(t, prefix, "@google/gemini-cli", "0.61.0", "gemini", "bundle/gemini.js")
	if v, err := Installed(claude, []string{"@anthropic-ai/claude-code"}); v != "2.1.332" || err != nil {
		t.Errorf("claude: %q, %v", v, err)
	}
	if v, err := Installed(gemini, []string{"@google/gemini-cli"}); v != "0.61.0" || err != nil {
		t.Errorf("gemini: %q, %v", v, err)
	}
	if v, err := Installed(gemini, []string{"@openai/codex"}); !errors.Is(err, ErrNoPackage) {
		t.Errorf("gemini's link asked for codex's package: %q, %v", v, err)
	}
	plain := filepath.Join(prefix, "plain")
	os.WriteFile(plain, []byte("#!/bin/sh\n"), 0o755)
	if _, err := Installed(plain, []string{"@google/gemini-cli"}); !errors.Is(err, ErrNoPackage) {
		t.Errorf("a file outside any package: %v", err)
	}
}

func TestVerdict(t *testing.T) {
	rec := []string{"2.1.197", "2.1.332"}
	for v, want := range map[string]string{
		"2.1.197":  "recorded",
		"2.1.332":  "recorded",
		"2.1.333":  "newer than recorded: rules may be stale",
		"2.10.0":   "newer than recorded: rules may be stale",
		"v2.1.332": "recorded",
		"2.1.2":    "older than recorded",
		"2.1.200":  "not recorded (between recorded versions)",
	} {
		if got := Verdict(v, rec); got != want {
			t.Errorf("Verdict(%s) = %q, want %q", v, got, want)
		}
	}
	if Verdict("1.0.0", nil) != "" {
		t.Error("a verdict with nothing recorded")
	}
}
