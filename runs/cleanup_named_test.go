package runs

import (
	"slices"
	"strings"
	"testing"

	"corral/reaper"
)

// What a cleanup ended is named in its Cleanup, escapees as such, in pid order, each
// command line cut to what a record should keep for display.
func TestCleanupOfNames(t *testing.T) {
	long := strings.Repeat("x", 1000)
	c := cleanupOf(reaper.Report{Killed: 3, VerifiedEmpty: true, Ended: []reaper.Named{
		{Fingerprint: reaper.Fingerprint{PID: 30, StartTime: 7}, Argv: []string{"sleep", "1"}, Outside: true},
		{Fingerprint: reaper.Fingerprint{PID: 20, StartTime: 5}, Argv: []string{"sh", "-c", long}},
	}})
	if len(c.Ended) != 2 || c.Ended[0].PID != 20 || c.Ended[1].PID != 30 {
		t.Fatalf("ended %+v", c.Ended)
	}
	if e := c.Ended[1]; e.How != EndedEscapee || e.StartTime != 7 || !slices.Equal(e.Argv, []string{"sleep", "1"}) {
		t.Errorf("escapee %+v", e)
	}
	e := c.Ended[0]
	if e.How != EndedMember || len(e.Argv) != 3 || e.Argv[1] != "-c" || len(e.Argv[2]) > endedArgv+len("…") ||
		!strings.HasSuffix(e.Argv[2], "…") {
		t.Errorf("member %+v: want its long argument cut", e)
	}
}
