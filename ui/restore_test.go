package ui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"corral/runs"
)

// At start, lost runs a restore would start are offered once: "Restore 2 runs …?";
// y restores them through the engine and the events pane says so. The next start over
// the same lost runs does not ask again (the prefs remember them), whatever the
// answer; another set of lost runs is asked about.
func TestRestoreAskedOnceAtStart(t *testing.T) {
	prefs := filepath.Join(t.TempDir(), PrefsFile)
	lost := []runs.Restored{{From: "r1", Name: "claude", Agent: "claude", SessionID: "s-1"},
		{From: "r2", Name: "codex", Agent: "codex", Fresh: true}}
	start := func() *harness {
		engine := newFake()
		engine.lost = lost
		p, err := LoadPrefs(prefs)
		if err != nil {
			t.Fatal(err)
		}
		return harnessWith(t, engine, Options{Prefs: p, PrefsPath: prefs}, 120, 40)
	}
	h := start()
	if h.m.mode != modeDialog || !strings.Contains(h.view(), "Restore 2 runs the reboot ended (claude, codex: fresh, no conversation id was recorded)") {
		t.Fatalf("no restore question at start:\n%s", h.view())
	}
	h.key("y")
	if got := h.engine.called("Restore"); len(got) != 1 || got[0] != "Restore r1,r2 --fresh" {
		t.Fatalf("restore calls: %q", got)
	}
	if v := h.view(); !strings.Contains(v, "restored claude as rr1 (conversation s-1)") ||
		!strings.Contains(v, "restored codex as rr2 (fresh: a new conversation)") {
		t.Errorf("the events do not say what was restored:\n%s", v)
	}
	h = start()
	if h.m.mode == modeDialog {
		t.Fatalf("asked again about the same runs:\n%s", h.view())
	}
	lost = append(lost, runs.Restored{From: "r3", Name: "gemini", Agent: "gemini", SessionID: "s-3"})
	h = start()
	if h.m.mode != modeDialog || !strings.Contains(h.view(), "Restore 1 run the reboot ended (gemini)") {
		t.Fatalf("another reboot's run was not asked about (alone):\n%s", h.view())
	}
	h.key("n")
	if got := h.engine.called("Restore"); len(got) != 0 {
		t.Fatalf("n restored: %q", got)
	}
	if h = start(); h.m.mode == modeDialog {
		t.Fatal("asked again after n")
	}
	// Some of them restored elsewhere since: the rest were asked about already.
	lost = lost[1:]
	if h = start(); h.m.mode == modeDialog {
		t.Fatalf("asked again about runs asked about before:\n%s", h.view())
	}
}

// The question's dry run does not wait out a dead server's leases (it would hold the
// UI's other calls, which share its connection): it answers at once, the UI works
// meanwhile, and the engine is asked again when the leases have run out.
func TestRestoreAskedAfterTheLeases(t *testing.T) {
	engine := newFake()
	engine.lost = []runs.Restored{{From: "r1", Name: "claude", Agent: "claude", SessionID: "s-1"}}
	engine.leaseWait = 10 * time.Millisecond
	offer := restoreOfferCmd(engine)().(restoreOfferMsg)
	if offer.wait != 10*time.Millisecond || len(offer.runs) != 0 {
		t.Fatalf("the dry run at start did not answer at once, with the leases' wait: %+v", offer)
	}
	// At start: the first dry run finds the lease, the second (after it) the run.
	engine.leaseWait = 10 * time.Millisecond
	h := harnessWith(t, engine, Options{PrefsPath: filepath.Join(t.TempDir(), PrefsFile)}, 120, 40)
	if engine.leaseWait != 0 || h.m.mode != modeDialog || !strings.Contains(h.view(), "Restore 1 run the reboot ended (claude)") {
		t.Fatalf("not asked once the leases ran out:\n%s", h.view())
	}
}
