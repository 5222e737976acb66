package runs

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"corral/demo/testkit"
	"corral/reaper"
)

// legacyID is the run id of testdata/record-before-14.11.json.
const legacyID = "r0123456789ab"

// legacyRecord writes testdata/record-before-14.11.json (a record as Corral wrote it
// before every key became snake_case: camelCase keys, nanosecond durations) for the
// live process fp.
func writeLegacyRecord(t *testing.T, reg *Registry, fp reaper.Fingerprint) string {
	t.Helper()
	b, err := os.ReadFile("testdata/record-before-14.11.json")
	if err != nil {
		t.Fatal(err)
	}
	s := strings.NewReplacer("{{PID}}", fmt.Sprint(fp.PID), "{{BOOT}}", fp.BootID,
		"{{START}}", fmt.Sprint(fp.StartTime), "{{PIDFS}}", fmt.Sprint(fp.PidfsIno)).Replace(string(b))
	id := legacyID
	if err := os.WriteFile(reg.recordPath(id), []byte(s), 0o600); err != nil {
		t.Fatal(err)
	}
	return id
}

// A record written by the previous version is read with every field it had, so a user
// who upgrades with live runs keeps them: the owner is dead and its lease expired, so
// the run is reaped as an orphan (not lost, not set aside as corrupt), and the record
// is rewritten in the new names. Its process carries the run id, as every run of that
// version did: a record without a secret claims no process that does not.
func TestLegacyRecordStillRead(t *testing.T) {
	dir := t.TempDir()
	reg := openReg(t, dir)
	child, _ := startOutsideEnv(t, []string{RunIDEnv + "=" + legacyID}, "sleep")
	fp := testkit.Pin(t, child.Process.Pid)
	id := writeLegacyRecord(t, reg, fp)
	rec, err := reg.record(id)
	if err != nil {
		t.Fatal(err)
	}
	want := Record{ID: id, OwnerInstanceID: "idead", LeaseEpoch: 3, CleanupMode: "session", State: Running,
		PID: fp.PID, Fingerprint: fp}
	if rec.ID != want.ID || rec.OwnerInstanceID != want.OwnerInstanceID || rec.LeaseEpoch != want.LeaseEpoch ||
		rec.CleanupMode != want.CleanupMode || rec.State != want.State || rec.Fingerprint != want.Fingerprint {
		t.Fatalf("read %+v", rec)
	}
	at := func(s string) time.Time { v, _ := time.Parse(time.RFC3339, s); return v }
	if !rec.CreatedAt.Equal(at("2026-11-20T10:00:00Z")) || !rec.UpdatedAt.Equal(at("2026-11-20T10:00:01Z")) ||
		!rec.LastOutputAt.Equal(at("2026-11-20T10:00:02Z")) || !rec.LeaseExpiresAt.Equal(at("2026-11-20T10:00:30Z")) {
		t.Errorf("times %+v", rec)
	}
	if s := rec.Spec; s.Timeout != 30*time.Minute || s.NoOutputTimeout >= 0 || s.Grace != 250*time.Millisecond ||
		s.Dir != "/tmp" || s.StopSignal != 15 {
		t.Errorf("spec %+v", s)
	}
	s := regSup(t, reg)
	ds, err := s.Reconcile(context.Background())
	if err != nil || len(ds) != 1 || ds[0].Decision != VerdictReaped {
		t.Fatalf("decisions %+v %v", ds, err)
	}
	if ok, _ := fp.Alive(); ok {
		t.Fatal("the orphan of the old record is alive")
	}
	raw, _ := os.ReadFile(reg.recordPath(id))
	if strings.Contains(string(raw), "runId") || !strings.Contains(string(raw), `"run_id"`) ||
		!strings.Contains(string(raw), `"grace_ms": 250`) {
		t.Errorf("rewritten record keeps old names:\n%s", raw)
	}
	if warn := reg.Warnings(); len(warn) > 0 {
		t.Errorf("warnings %v", warn)
	}
}

// Durations cross JSON as milliseconds without turning a nonzero value into 0 (off or
// the default), and both names of a record read back the same.
func TestSpecDurationsInMillis(t *testing.T) {
	in := Spec{Name: "x", Timeout: 90 * time.Second, NoOutputTimeout: -1, Grace: 300 * time.Microsecond}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"timeout_ms":90000`) || !strings.Contains(string(b), `"no_output_timeout_ms":-1`) ||
		!strings.Contains(string(b), `"grace_ms":1`) || strings.Contains(string(b), `"timeout":`) {
		t.Fatalf("%s", b)
	}
	var out Spec
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if out.Timeout != in.Timeout || out.NoOutputTimeout >= 0 || out.Grace != time.Millisecond {
		t.Errorf("round trip %+v", out)
	}
}

// No cleanup steps are written as [], whoever writes them (ls wrote null, run [] ).
func TestCleanupStepsNeverNull(t *testing.T) {
	b, err := json.Marshal(Cleanup{})
	if err != nil || !strings.Contains(string(b), `"steps":[]`) {
		t.Fatalf("%s, %v", b, err)
	}
	var back Cleanup
	if err := json.Unmarshal(b, &back); err != nil || back.Steps == nil || len(back.Steps) != 0 {
		t.Fatalf("read back %+v, %v", back, err)
	}
}

// The nanosecond keys of a spec written before durations were in milliseconds are
// read however the decoder matches them (any case), and only when there: a spec of
// today is read once.
func TestSpecLegacyKeysAnyCase(t *testing.T) {
	for _, c := range []struct {
		in    string
		grace time.Duration
		tmo   time.Duration
	}{
		{`{"name":"a","GRACE":2000000000,"Timeout":3000000000}`, 2 * time.Second, 3 * time.Second},
		{`{"name":"a","no_output_timeout":4000000,"grace_ms":7}`, 7 * time.Millisecond, 0},
		{`{"name":"a","argv":["timeout","grace"],"grace_ms":5,"timeout_ms":6}`, 5 * time.Millisecond, 6 * time.Millisecond},
	} {
		var s Spec
		if err := json.Unmarshal([]byte(c.in), &s); err != nil {
			t.Fatal(err)
		}
		if s.Grace != c.grace || s.Timeout != c.tmo {
			t.Errorf("%s: grace %v timeout %v, want %v %v", c.in, s.Grace, s.Timeout, c.grace, c.tmo)
		}
	}
	if legacyKeys([]byte(`{"argv":["sh"],"grace_ms":5000,"timeout_ms":1}`)) {
		t.Error("a spec of today taken for a legacy one")
	}
}
