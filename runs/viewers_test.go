package runs

import (
	"slices"
	"testing"
)

// A viewer's snapshot carries what changed since its last one and what it looks at;
// all, or a viewer forgotten (it went away), gets every run again.
func TestSnapshotForSendsWhatChanged(t *testing.T) {
	s := newSup(t)
	a := spawn(t, s, childSpec(false, "sleep"))
	waitOutput(t, s, a, "ready")
	b := spawn(t, s, childSpec(false, "bell"))
	waitOutput(t, s, b, "waiting for you")
	ids := func(is []Info) []string {
		var out []string
		for _, i := range is {
			out = append(out, i.ID)
		}
		return out
	}
	step := func(what string, all bool, want ...string) {
		t.Helper()
		if got := ids(s.SnapshotFor("v", all)); !slices.Equal(got, want) {
			t.Errorf("%s: sent %v, want %v", what, got, want)
		}
	}
	step("first", false, a, b)
	step("nothing changed", false)
	if err := s.Write(b, []byte("hi\n")); err != nil {
		t.Fatal(err)
	}
	waitOutput(t, s, b, "you said hi")
	step("b printed", false, b)
	step("quiet again", false)
	if err := s.Focus(a, "v", true); err != nil {
		t.Fatal(err)
	}
	step("a looked at", false, a)
	step("a still looked at", false, a)
	step("all", true, a, b)
	s.Unfocus("v")
	step("forgotten", false, a, b)
	step("another viewer is not this one", false)
	if got := ids(s.SnapshotFor("w", false)); !slices.Equal(got, []string{a, b}) {
		t.Errorf("a new viewer got %v", got)
	}
	s.Cancel(a)
	waitEnd(t, s, a)
	step("a ended", false, a)
}
