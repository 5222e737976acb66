package ui

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// stripANSI drops escape sequences: goldens are compared as the text a person sees.
func stripANSI(s string) string { return ansi.Strip(s) }

// golden compares got with testdata/name.golden (rewriting it with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./ui -run %s -update)", err, t.Name())
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (go test ./ui -run %s -update to accept):\n--- got\n%s\n--- want\n%s",
			path, t.Name(), got, want)
	}
}

// goldenView checks a view as text and, styles included, as quoted lines; every line
// must be exactly w columns wide.
func goldenView(t *testing.T, name, view string, w int) {
	t.Helper()
	for i, l := range strings.Split(view, "\n") {
		if n := ansi.StringWidth(l); n != w {
			t.Errorf("%s: line %d is %d columns, want %d: %q", name, i, n, w, l)
		}
	}
	golden(t, name, stripANSI(view)+"\n")
	var b strings.Builder
	for _, l := range strings.Split(view, "\n") {
		b.WriteString(strconv.Quote(l) + "\n")
	}
	golden(t, name+".styled", b.String())
}
