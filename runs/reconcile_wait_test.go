package runs

import (
	"fmt"
	"testing"
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
