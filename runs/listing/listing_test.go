package listing

import (
	"bytes"
	"encoding/json"
	"testing"

	"corral/runs"
)

// Another host's corral ls --json reads back whole: the record and what ls adds
// (Record's own reader, promoted, would drop those).
func TestRunJSONRoundTrip(t *testing.T) {
	in := Run{Record: runs.Record{RunID: "r1", Name: "agent", State: runs.Running}, OwnerAlive: true, CPUMS: 12, Memory: 34}
	var b bytes.Buffer
	if err := WriteJSON(&b, []Run{in}, runs.Metrics{}); err != nil {
		t.Fatal(err)
	}
	var doc Doc
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	got := doc.Runs[0]
	if len(doc.Runs) != 1 || got.RunID != "r1" || got.Name != "agent" || got.State != runs.Running ||
		!got.OwnerAlive || got.CPUMS != 12 || got.Memory != 34 {
		t.Errorf("read back %+v, want %+v", got, in)
	}
}
