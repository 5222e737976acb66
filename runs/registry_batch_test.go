package runs

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// batchFixture is a registry with n running records, whose updates to exited (with
// exit code i) are written in groups of per as a shutdown writes them: to the batch.
type batchFixture struct {
	dir string
	reg *Registry
	ids []string
}

func newBatchFixture(t *testing.T, n int) *batchFixture {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "state")
	reg, err := OpenRegistry(dir, testDefaults())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reg.Close() })
	f := &batchFixture{dir: dir, reg: reg}
	for i := range n {
		id := newID()
		rec := Record{ID: id, Name: "n" + id, State: Running, PID: 1000 + i,
			CreatedAt: time.Now().Add(time.Duration(i) * time.Millisecond)}
		if err := reg.create(rec); err != nil {
			t.Fatal(err)
		}
		f.ids = append(f.ids, id)
	}
	return f
}

// finish writes the exited records of ids, grouped as a shutdown's are.
func (f *batchFixture) finish(t *testing.T, ids []string) {
	t.Helper()
	f.reg.batchFinal(true)
	defer f.reg.batchFinal(false)
	err := f.reg.grouped(func() error {
		for _, id := range ids {
			code := f.code(id)
			if err := f.reg.updateIn(true, id, 1, func(rec *Record) {
				rec.State, rec.Reason, rec.ExitCode = Exited, SupervisorShutdown, &code
				rec.Cleanup.VerifiedEmpty = true
			}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func (f *batchFixture) code(id string) int { return slices.Index(f.ids, id) }

// fileStates is what each record file says (no batch overlaid).
func (f *batchFixture) fileStates(t *testing.T) map[string]State {
	t.Helper()
	out := map[string]State{}
	for _, id := range f.ids {
		rec, err := readRecord(f.reg.runs, id+".json")
		if err != nil {
			t.Fatal(err)
		}
		out[id] = rec.State
	}
	return out
}

// fold runs a section of reg that writes (a reconcile's), which folds the batch.
func fold(t *testing.T, reg *Registry) {
	t.Helper()
	if err := reg.transact(func(tx) error { return nil }); err != nil {
		t.Fatal(err)
	}
}

func (f *batchFixture) batchExists() bool {
	_, err := os.Stat(filepath.Join(f.dir, "runs", batchName))
	return err == nil
}

// checkExited checks that recs are f's records, those of exited as finish wrote them
// (exit code its index) and every other one running.
func (f *batchFixture) checkExited(t *testing.T, recs []Record, exited []string) {
	t.Helper()
	if len(recs) != len(f.ids) {
		t.Fatalf("%d records, want %d", len(recs), len(f.ids))
	}
	for _, rec := range recs {
		if slices.Contains(exited, rec.ID) {
			if rec.State != Exited || rec.ExitCode == nil || *rec.ExitCode != f.code(rec.ID) ||
				rec.Reason != SupervisorShutdown || !rec.Cleanup.VerifiedEmpty {
				t.Errorf("record %s: %s %v, want exited with code %d", rec.ID, rec.State, rec.ExitCode, f.code(rec.ID))
			}
		} else if rec.State != Running {
			t.Errorf("record %s: %s, want running", rec.ID, rec.State)
		}
	}
}

// A shutdown's final records go to one batch, not to their files; every reader sees
// them (the listings overlay the batch; a locked section that writes folds it into
// the files first), and then every record is in its file and no batch is left.
func TestBatchOverlaidThenFolded(t *testing.T) {
	f := newBatchFixture(t, 40)
	f.finish(t, f.ids[:25])
	f.finish(t, f.ids[25:30]) // a second segment
	if !f.batchExists() {
		t.Fatal("no batch written")
	}
	for id, st := range f.fileStates(t) {
		if st != Running {
			t.Fatalf("record file %s says %s before the fold, want running: the batch was not used", id, st)
		}
	}
	recs, err := f.reg.ListCached()
	if err != nil {
		t.Fatal(err)
	}
	f.checkExited(t, recs, f.ids[:30])
	// Another registry's reader without the lock (a CLI of its own) sees the same.
	if recs, err = f.reg.listWith(func(name string) (Record, error) { return readRecord(f.reg.runs, name) },
		func(string, error) {}); err != nil {
		t.Fatal(err)
	}
	f.checkExited(t, recs, f.ids[:30])
	recs, err = f.reg.List() // a locked section that only reads: overlays it
	if err != nil {
		t.Fatal(err)
	}
	f.checkExited(t, recs, f.ids[:30])
	if !f.batchExists() {
		t.Error("the batch was folded by a section that only reads")
	}
	fold(t, f.reg) // a locked section that writes: folds it first
	if f.batchExists() {
		t.Error("the batch is left after a locked section that writes")
	}
	for id, st := range f.fileStates(t) {
		if want := map[bool]State{true: Exited, false: Running}[slices.Contains(f.ids[:30], id)]; st != want {
			t.Errorf("record file %s says %s after the fold, want %s", id, st, want)
		}
	}
}

// A Corral that dies with its batch written and not folded loses no record: the next
// registry opened on the dir reads the records through it and folds it as it first
// writes.
func TestBatchFoldedByTheNextOpen(t *testing.T) {
	f := newBatchFixture(t, 20)
	f.finish(t, f.ids)
	// The first registry is not closed (a crash): its instance lock is still held, as
	// a dead process's would be until the kernel dropped it; that does not matter here.
	next, err := OpenRegistry(f.dir, testDefaults())
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	if w := next.Warnings(); len(w) != 0 {
		t.Errorf("warnings %q", w)
	}
	recs, err := next.List() // corral ls without a server: reads, folds nothing
	if err != nil {
		t.Fatal(err)
	}
	f.checkExited(t, recs, f.ids)
	fold(t, next) // its first reconcile, or write
	if f.batchExists() {
		t.Fatal("the batch is left after the next registry wrote")
	}
	for id, st := range f.fileStates(t) {
		if st != Exited {
			t.Errorf("record file %s says %s, want exited", id, st)
		}
	}
	if recs, err = next.List(); err != nil {
		t.Fatal(err)
	}
	f.checkExited(t, recs, f.ids)
}

// A crash while a segment was being appended leaves it torn: what it held was never
// acknowledged, and is ignored; every whole segment before it is read and folded.
func TestBatchTornLastSegment(t *testing.T) {
	f := newBatchFixture(t, 10)
	f.finish(t, f.ids[:6])
	path := filepath.Join(f.dir, "runs", batchName)
	whole, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// A second segment, whole, then cut at every length: never an error, never a
	// record of it, and the first segment's records all read.
	rec, err := readRecord(f.reg.runs, f.ids[7]+".json")
	if err != nil {
		t.Fatal(err)
	}
	rec.State = Exited
	b := mustIndent(t, rec)
	seg := encodeSegment([]batchEntry{{name: rec.ID + ".json", b: b, rec: rec}})
	for cut := 0; cut < len(seg); cut++ {
		es, _, err := parseBatch(append(slices.Clone(whole), seg[:cut]...))
		if err != nil {
			t.Fatalf("cut at %d of %d: %v", cut, len(seg), err)
		}
		if len(es) != 6 {
			t.Fatalf("cut at %d of %d: %d records, want the first segment's 6", cut, len(seg), len(es))
		}
	}
	for cut := 0; cut < len(whole); cut++ { // torn as the batch was made: nothing of it
		if es, _, err := parseBatch(whole[:cut]); err != nil || len(es) != 0 {
			t.Fatalf("the first segment cut at %d of %d: %d records, %v; want none, no error", cut, len(whole), len(es), err)
		}
	}
	if err := os.WriteFile(path, append(slices.Clone(whole), seg[:len(seg)-3]...), 0o600); err != nil {
		t.Fatal(err)
	}
	next, err := OpenRegistry(f.dir, testDefaults())
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	recs, err := next.List()
	if err != nil {
		t.Fatal(err)
	}
	f.checkExited(t, recs, f.ids[:6])
	fold(t, next)
	if f.batchExists() {
		t.Error("the batch is left")
	}
	if recs, err = next.List(); err != nil {
		t.Fatal(err)
	}
	f.checkExited(t, recs, f.ids[:6])
}

// A batch that does not read is set aside, never fatal: the registry opens, its
// records say what their files said, and its first write sets the batch aside, with
// a warning.
func TestBatchCorruptSetAside(t *testing.T) {
	for name, spoil := range map[string]func([]byte) []byte{
		"garbage": func([]byte) []byte { return []byte("not a batch at all\n") },
		"checksum": func(b []byte) []byte {
			// A byte of the first of two segments changed: a segment before the last
			// fails its checksum.
			b = slices.Clone(b)
			i := strings.Index(string(b), `"name"`)
			b[i+2] = 'N'
			return b
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := newBatchFixture(t, 8)
			f.finish(t, f.ids[:3])
			f.finish(t, f.ids[3:5])
			path := filepath.Join(f.dir, "runs", batchName)
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, spoil(b), 0o600); err != nil {
				t.Fatal(err)
			}
			next, err := OpenRegistry(f.dir, testDefaults())
			if err != nil {
				t.Fatalf("a corrupt batch made the registry fail to open: %v", err)
			}
			defer next.Close()
			recs, err := next.List() // what the files say: the batch does not read
			if err != nil {
				t.Fatal(err)
			}
			f.checkExited(t, recs, nil)
			fold(t, next)
			w := next.Warnings()
			if len(w) != 1 || !strings.Contains(w[0], batchName) {
				t.Errorf("warnings %q, want one about the batch", w)
			}
			aside, _ := filepath.Glob(filepath.Join(f.dir, "runs", "corrupt", batchName+".*"))
			if len(aside) != 1 {
				t.Errorf("set aside: %v, want the batch", aside)
			}
			if recs, err = next.List(); err != nil {
				t.Fatal(err)
			}
			f.checkExited(t, recs, nil)
		})
	}
}

// A record the batch holds that was taken since by another Corral (a reconcile of a
// Corral that knows no batch stole it under a new epoch, or removed it) is not
// written over, nor listed as the batch says.
func TestBatchFencedByTheLease(t *testing.T) {
	f := newBatchFixture(t, 4)
	f.finish(t, f.ids)
	stolen, gone := f.ids[0], f.ids[1]
	rec, err := readRecord(f.reg.runs, stolen+".json")
	if err != nil {
		t.Fatal(err)
	}
	rec.OwnerInstanceID, rec.LeaseEpoch = "iother", 2
	if err := os.WriteFile(filepath.Join(f.dir, "runs", stolen+".json"), mustIndent(t, rec), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(f.dir, "runs", gone+".json")); err != nil {
		t.Fatal(err)
	}
	check := func(recs []Record) {
		t.Helper()
		if len(recs) != 3 {
			t.Fatalf("%d records, want 3 (one removed)", len(recs))
		}
		for _, rec := range recs {
			want := Exited
			if rec.ID == stolen {
				want = Running
			}
			if rec.State != want {
				t.Errorf("record %s: %s, want %s", rec.ID, rec.State, want)
			}
		}
	}
	recs, err := f.reg.ListCached()
	if err != nil {
		t.Fatal(err)
	}
	check(recs)
	if recs, err = f.reg.List(); err != nil {
		t.Fatal(err)
	}
	check(recs)
	fold(t, f.reg)
	if recs, err = f.reg.List(); err != nil {
		t.Fatal(err)
	}
	check(recs)
	if _, err := os.Stat(filepath.Join(f.dir, "runs", gone+".json")); err == nil {
		t.Error("a removed record was made again by the fold")
	}
}

// A fold cut short (some records in their files, the batch still there) is done
// again whole by the next locked section.
func TestBatchFoldCutShort(t *testing.T) {
	f := newBatchFixture(t, 6)
	f.finish(t, f.ids)
	path := filepath.Join(f.dir, "runs", batchName)
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	es, _, err := parseBatch(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es[:2] { // as far as the fold got
		if err := os.WriteFile(filepath.Join(f.dir, "runs", e.name), e.b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	next, err := OpenRegistry(f.dir, testDefaults())
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	fold(t, next)
	recs, err := next.List()
	if err != nil {
		t.Fatal(err)
	}
	f.checkExited(t, recs, f.ids)
	if f.batchExists() {
		t.Error("the batch is left")
	}
	for id, st := range f.fileStates(t) {
		if st != Exited {
			t.Errorf("record file %s says %s, want exited", id, st)
		}
	}
}

func mustIndent(t *testing.T, rec Record) []byte {
	t.Helper()
	b, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A record created and updated in one group while a shutdown batches its records
// goes to its file, not to the batch: no file would be there for the batch's record
// to overlay, and the record would be lost.
func TestBatchCreatedInTheGroupGoesToItsFile(t *testing.T) {
	f := newBatchFixture(t, 1)
	id := newID()
	f.reg.batchFinal(true)
	err := f.reg.grouped(func() error {
		if err := f.reg.createIn(Record{ID: id, Name: "new", State: Running, CreatedAt: time.Now()}); err != nil {
			return err
		}
		return f.reg.updateIn(true, id, 1, func(rec *Record) { rec.State = Exited })
	})
	f.reg.batchFinal(false)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := readRecord(f.reg.runs, id+".json")
	if err != nil || rec.State != Exited {
		t.Fatalf("the record created in the group: %s, %v; want exited in its file", rec.State, err)
	}
}

// An append to the batch that fails (a full disk) sends its group's records to their
// files: the batch's older records of the same runs, under the same lease, must not
// be overlaid on them by a reader, nor folded over them by the next locked section.
func TestBatchFailedAppendNotOverNewer(t *testing.T) {
	f := newBatchFixture(t, 4)
	f.reg.batchFinal(true)
	defer f.reg.batchFinal(false)
	step := func(name string) error {
		return f.reg.grouped(func() error {
			for _, id := range f.ids {
				if err := f.reg.updateIn(true, id, 1, func(rec *Record) { rec.Name = name }); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if err := step("first"); err != nil { // to the batch
		t.Fatal(err)
	}
	if !f.batchExists() {
		t.Fatal("no batch written")
	}
	f.reg.batchFault = func() error { return errors.New("no space left on device") }
	err := step("second") // the append fails: to the files, or failed
	f.reg.batchFault = nil
	check := func(when string, recs []Record) {
		t.Helper()
		for _, rec := range recs {
			if err == nil && rec.Name != "second" || err != nil && rec.Name != "first" {
				t.Errorf("%s: record %s named %q, the write of second returned %v", when, rec.ID, rec.Name, err)
			}
		}
	}
	recs, lerr := f.reg.List()
	if lerr != nil {
		t.Fatal(lerr)
	}
	check("listed", recs)
	fold(t, f.reg)
	if recs, lerr = f.reg.List(); lerr != nil {
		t.Fatal(lerr)
	}
	check("folded", recs)
	if err := step("third"); err != nil {
		t.Fatal(err)
	}
	fold(t, f.reg)
	if recs, lerr = f.reg.List(); lerr != nil {
		t.Fatal(lerr)
	}
	for _, rec := range recs {
		if rec.Name != "third" {
			t.Errorf("after a third write: record %s named %q", rec.ID, rec.Name)
		}
	}
}

// A final record larger than a record file may be goes to its file, as without a
// batch, not to the shutdown's batch: the batch reads, and after a fold every other
// run's final record is in its file, exited. (In the batch it made the whole batch
// unreadable: set aside, no run's final record kept.)
func TestBatchOversizeRecordToItsFile(t *testing.T) {
	f := newBatchFixture(t, 10)
	big := f.ids[4]
	f.reg.batchFinal(true)
	err := f.reg.grouped(func() error {
		for _, id := range f.ids {
			code := f.code(id)
			if err := f.reg.updateIn(true, id, 1, func(rec *Record) {
				rec.State, rec.Reason, rec.ExitCode = Exited, SupervisorShutdown, &code
				rec.Cleanup.VerifiedEmpty = true
				if id == big {
					rec.Spec.Env = []string{"BIG=" + strings.Repeat("x", recordCap+recordCap/5)}
				}
			}); err != nil {
				return err
			}
		}
		return nil
	})
	f.reg.batchFinal(false)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(f.dir, "runs", batchName))
	if err != nil {
		t.Fatal(err)
	}
	es, skipped, err := parseBatch(b)
	if err != nil || len(es) != 9 || len(skipped) != 0 || slices.ContainsFunc(es, func(e batchEntry) bool { return e.name == big+".json" }) {
		t.Errorf("the batch: %d entries, %v left out, %v: want the 9 others only", len(es), skipped, err)
	}
	if st, err := os.Stat(filepath.Join(f.dir, "runs", big+".json")); err != nil || st.Size() <= recordCap {
		t.Errorf("the large record's file: %v: want the large record written there", err)
	}
	fold(t, f.reg)
	for _, id := range f.ids {
		if id == big {
			continue
		}
		rec, err := readRecord(f.reg.runs, id+".json")
		if err != nil || rec.State != Exited || rec.ExitCode == nil || *rec.ExitCode != f.code(id) {
			t.Errorf("record %s: %s %v (%v), want exited with code %d", id, rec.State, rec.ExitCode, err, f.code(id))
		}
	}
	if f.batchExists() {
		t.Errorf("the batch is left after the fold")
	}
}

// A batch whose segments all check but one of whose entries is no record (larger than
// a record file may be, or not decoding) keeps every other entry: that one alone is
// left out, and the batch, once folded, set aside with what it was.
func TestBatchUndecodableEntryLeftOut(t *testing.T) {
	for _, bad := range []string{"oversize", "undecodable"} {
		t.Run(bad, func(t *testing.T) {
			f := newBatchFixture(t, 10)
			var es []batchEntry
			for i, id := range f.ids {
				rec, err := readRecord(f.reg.runs, id+".json")
				if err != nil {
					t.Fatal(err)
				}
				code := f.code(id)
				rec.State, rec.Reason, rec.ExitCode = Exited, SupervisorShutdown, &code
				rec.Cleanup.VerifiedEmpty = true
				b := mustIndent(t, rec)
				if i == 4 {
					if bad == "oversize" {
						rec.Spec.Env = []string{"BIG=" + strings.Repeat("x", recordCap)}
						b = mustIndent(t, rec)
					} else {
						b = []byte("{not json")
					}
				}
				es = append(es, batchEntry{name: id + ".json", b: b})
			}
			whole := append([]byte(batchHeader), encodeSegment(es)...)
			got, skipped, err := parseBatch(whole)
			if err != nil || len(got) != 9 || len(skipped) != 1 {
				t.Fatalf("%d entries, %d left out (%v), %v: want 9, the bad one left out", len(got), len(skipped), skipped, err)
			}
			if err := os.WriteFile(filepath.Join(f.dir, "runs", batchName), whole, 0o600); err != nil {
				t.Fatal(err)
			}
			recs, err := f.reg.List()
			if err != nil {
				t.Fatal(err)
			}
			var exited []string
			for _, id := range f.ids {
				if id != f.ids[4] {
					exited = append(exited, id)
				}
			}
			f.checkExited(t, recs, exited) // overlaid
			fold(t, f.reg)
			states := f.fileStates(t)
			for _, id := range exited {
				if states[id] != Exited {
					t.Errorf("record %s: %s in its file after the fold, want exited", id, states[id])
				}
			}
			if states[f.ids[4]] != Running {
				t.Errorf("the bad entry's record: %s, want running as its file said", states[f.ids[4]])
			}
			if f.batchExists() {
				t.Errorf("the batch is left in runs/ after the fold")
			}
			if aside, _ := filepath.Glob(filepath.Join(f.dir, "runs", "corrupt", batchName+".*")); len(aside) != 1 {
				t.Errorf("set aside: %v, want the batch", aside)
			}
		})
	}
}
