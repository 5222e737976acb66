package runs

import (
	"fmt"
	"testing"
	"time"
)

// A later pass's decision replaces an earlier one for the same run unless the earlier
// one was final; kept decisions of a later pass are not news; runs only a later pass
// saw are added; and the notable ones are neither kept nor left alone.
func TestMergeDecisions(t *testing.T) {
	first := []Decision{
		{ID: "a", Decision: VerdictLeftAlone},
		{ID: "b", Decision: VerdictReaped},
		{ID: "c", Decision: VerdictLeftAlone},
	}
	later := []Decision{
		{ID: "a", Decision: VerdictReaped},
		{ID: "b", Decision: VerdictLeftAlone},
		{ID: "c", Decision: VerdictKept},
		{ID: "d", Decision: VerdictLost},
	}
	got := mergeDecisions(first, later)
	want := "[a:orphan-reaped b:orphan-reaped c:left-alone d:lost]"
	if s := verdicts(got); s != want {
		t.Fatalf("merged %s, want %s", s, want)
	}
	if s := verdicts(Notable(got)); s != "[a:orphan-reaped b:orphan-reaped d:lost]" {
		t.Fatalf("notable %s", s)
	}
}

func verdicts(ds []Decision) string {
	var out []string
	for _, d := range ds {
		out = append(out, d.ID+":"+string(d.Decision))
	}
	return fmt.Sprint(out)
}

// A wait for a reconcile (a restore in a server, whose UI or log is told every pass)
// leaves the supervisor's own report in place: passes after it still reach it.
func TestReconcileAndWaitKeepsTheReport(t *testing.T) {
	reg, err := OpenRegistry(t.TempDir(), testDefaults())
	if err != nil {
		t.Fatal(err)
	}
	s := newSup(t, WithRegistry(reg))
	passes := make(chan struct{}, 16)
	s.ReconcileInBackground(func([]Decision, error) { passes <- struct{}{} })
	<-passes
	if _, err := s.ReconcileAndWait(func(int, time.Duration) {}); err != nil {
		t.Fatal(err)
	}
	for len(passes) > 0 { // the pass ReconcileAndWait made, told to both
		<-passes
	}
	s.reconcileLater()
	select {
	case <-passes:
	case <-time.After(10 * time.Second):
		t.Fatal("a pass after ReconcileAndWait did not reach the supervisor's report")
	}
}
