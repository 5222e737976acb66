package api

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"corral/runs"
	"corral/watchdog"
)

// A run list leaves out the zero watchdog of an idle run (a thousand of them were a
// quarter of an attaching client's snapshot) and keeps one that says something;
// either decodes as it was.
func TestRunListLeavesOutTheZeroWatchdog(t *testing.T) {
	at := time.Date(2026, 11, 29, 14, 0, 0, 0, time.UTC)
	idle := runs.Info{ID: "ridle", Name: "idle", Kind: runs.KindPTY, State: runs.Running, PID: 42}
	armed := idle
	armed.ID, armed.Name = "rarmed", "armed"
	armed.Watchdog = watchdog.State{Overall: watchdog.Deadline{Armed: true, At: at, Span: time.Minute, Left: 30 * time.Second},
		LastOutput: at, LastOutputAge: time.Second}
	b, err := json.Marshal(RunList{idle, armed})
	if err != nil {
		t.Fatal(err)
	}
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	if _, ok := raw[0]["watchdog"]; ok {
		t.Errorf("an idle run's zero watchdog is sent: %s", raw[0]["watchdog"])
	}
	if w := string(raw[1]["watchdog"]); !strings.Contains(w, `"armed":true`) {
		t.Errorf("an armed watchdog on the wire: %s", w)
	}
	var got RunList
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	// As the whole WireInfos decode: what a client had before.
	whole, err := json.Marshal([]WireInfo{wireInfo(idle), wireInfo(armed)})
	if err != nil {
		t.Fatal(err)
	}
	var want RunList
	if err := json.Unmarshal(whole, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("decoded:\n%+v\nwant\n%+v", got, want)
	}
	if len(b) >= len(whole) {
		t.Errorf("the list is %d bytes, the whole WireInfos %d", len(b), len(whole))
	}
}
