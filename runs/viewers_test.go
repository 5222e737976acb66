package runs

import (
	"corral/watchdog"
	"slices"
	"testing"
	"time"
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

// A fresh snapshot of a run that only aged (its deadlines' time left, the age of its
// last output, its lease renewed) has not moved; any other field has.
func TestInfoMoved(t *testing.T) {
	at := time.Now()
	prev := Info{ID: "r1", Seq: 4, LeaseExpiresAt: at.Add(30 * time.Second),
		Watchdog: watchdog.State{LastOutput: at, LastOutputAge: time.Second,
			NoOutput: watchdog.Deadline{Armed: true, At: at.Add(time.Minute), Left: time.Minute, Span: time.Minute}}}
	aged := prev
	aged.LeaseExpiresAt = at.Add(45 * time.Second)
	aged.Watchdog.LastOutputAge, aged.Watchdog.NoOutput.Left = 9*time.Second, 51*time.Second
	if aged.Moved(prev) {
		t.Fatal("a run that only aged moved")
	}
	for name, change := range map[string]func(*Info){
		"seq":               func(i *Info) { i.Seq++ },
		"usage":             func(i *Info) { i.Usage.CPU += time.Millisecond },
		"last output":       func(i *Info) { i.Watchdog.LastOutput = at.Add(time.Second) },
		"frozen left":       func(i *Info) { i.Watchdog.Frozen, i.Watchdog.NoOutput.Left = true, time.Second },
		"lease owner":       func(i *Info) { i.LeaseOwner = "other" },
		"lease not renewed": func(i *Info) { i.LeaseNotRenewed = "no space left on device" },
	} {
		moved := aged
		change(&moved)
		if !moved.Moved(prev) {
			t.Errorf("%s changed, but the run did not move", name)
		}
	}
}
