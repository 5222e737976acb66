package parity

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestUnifiedEqual(t *testing.T) {
	if d, n := unified([]string{"a", "b"}, []string{"a", "b"}, "x", "y", noMark); d != "" || n != 0 {
		t.Errorf("equal inputs gave %q, %d", d, n)
	}
}

func TestUnifiedFormat(t *testing.T) {
	a := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}
	b := []string{"1", "2", "3", "4", "five", "6", "7", "8", "9", "10", "11"}
	got, n := unified(a, b, "pty", "pipe", func(j int) string {
		if j == 10 {
			return " <err>"
		}
		return ""
	})
	want := "--- pty\n+++ pipe\n" +
		"@@ -2,9 +2,10 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n 9\n 10\n+11 <err>\n"
	if got != want || n != 3 {
		t.Errorf("got (%d changed)\n%s\nwant\n%s", n, got, want)
	}
}

func TestUnifiedPureInsertionHeader(t *testing.T) {
	got, _ := unified(nil, []string{"x"}, "a", "b", noMark)
	if want := "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestUnifiedAgainstDiff checks random inputs: the diff must turn a into b when
// applied, and be as short as GNU diff's (both are minimal on inputs this small).
func TestUnifiedAgainstDiff(t *testing.T) {
	gnu, err := exec.LookPath("diff")
	if err != nil {
		t.Skip("no diff(1) to compare with")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	for i := range 200 {
		a, b := randomLines(rng), randomLines(rng)
		got, n := unified(a, b, "a", "b", noMark)
		if applied := apply(t, a, got); !slices.Equal(applied, b) {
			t.Fatalf("case %d: applying\n%s\nto %q gave %q, want %q", i, got, a, applied, b)
		}
		if want := gnuChanged(t, gnu, dir, a, b); n != want {
			t.Fatalf("case %d: %d changed lines, diff(1) has %d\n%s", i, n, want, got)
		}
	}
}

func TestUnifiedBoundsWork(t *testing.T) {
	a, b := make([]string, 3*maxEdits), make([]string, 3*maxEdits)
	for i := range a {
		a[i], b[i] = "a"+strconv.Itoa(i), "b"+strconv.Itoa(i)
	}
	got, n := unified(a, b, "a", "b", noMark)
	if n != len(a)+len(b) || !slices.Equal(apply(t, a, got), b) {
		t.Errorf("a replacement past maxEdits: %d changed", n)
	}
}

func noMark(int) string { return "" }

func randomLines(rng *rand.Rand) []string {
	out := make([]string, rng.IntN(12))
	for i := range out {
		out[i] = string(rune('a' + rng.IntN(4)))
	}
	return out
}

// apply applies a unified diff to a, checking every context and removed line.
func apply(t *testing.T, a []string, diff string) []string {
	t.Helper()
	if diff == "" {
		return a
	}
	var out []string
	pos := 0
	for _, l := range strings.Split(strings.TrimSuffix(diff, "\n"), "\n")[2:] {
		switch l[0] {
		case '@':
			start, _ := strconv.Atoi(strings.Split(strings.TrimPrefix(strings.Fields(l)[1], "-"), ",")[0])
			if strings.HasSuffix(strings.Fields(l)[1], ",0") {
				start++ // "-N,0" names the line before the insertion
			}
			out = append(out, a[pos:start-1]...)
			pos = start - 1
		case ' ', '-':
			if a[pos] != l[1:] {
				t.Fatalf("diff expects %q at line %d, a has %q", l[1:], pos+1, a[pos])
			}
			if l[0] == ' ' {
				out = append(out, a[pos])
			}
			pos++
		case '+':
			out = append(out, l[1:])
		}
	}
	return append(out, a[pos:]...)
}

func gnuChanged(t *testing.T, gnu, dir string, a, b []string) int {
	t.Helper()
	fa, fb := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(fa, []byte(joinLines(a)), 0o600)
	os.WriteFile(fb, []byte(joinLines(b)), 0o600)
	out, _ := exec.Command(gnu, "--minimal", "-U0", fa, fb).Output()
	n := 0
	for _, l := range strings.Split(string(out), "\n") {
		if (strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---")) ||
			(strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++")) {
			n++
		}
	}
	return n
}

func joinLines(ls []string) string {
	if len(ls) == 0 {
		return ""
	}
	return strings.Join(ls, "\n") + "\n"
}
