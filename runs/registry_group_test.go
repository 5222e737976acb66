package runs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"
)

// Record writes that wait for the registry lock, many at once, two in a row per
// record, and two of one record in one section, all land: each record on disk is its last write, what a listing from the
// files and one from memory both say, and no temp file is left.
func TestGroupedWritesAllLand(t *testing.T) {
	reg, err := OpenRegistry(t.TempDir(), shortLeases())
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	const n = 200
	for i := range n {
		if err := reg.grouped(func() error { return reg.createIn(Record{ID: fmt.Sprintf("r%03d", i), State: Running}) }); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			id := fmt.Sprintf("r%03d", i)
			for v := 1; v <= 2; v++ {
				err := reg.grouped(func() error {
					return reg.updateIn(true, id, 1, func(r *Record) { r.Name = fmt.Sprintf("%s-v%d", id, v) })
				})
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	// Two writes of one record in one section: the second lands.
	err = reg.grouped(func() error {
		if err := reg.updateIn(true, "r000", 1, func(r *Record) { r.Name = "r000-v1" }); err != nil {
			return err
		}
		return reg.updateIn(true, "r000", 1, func(r *Record) { r.Name = "r000-v2" })
	})
	if err != nil {
		t.Fatal(err)
	}
	files, err := reg.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != n {
		t.Fatalf("%d records, want %d", len(files), n)
	}
	for _, r := range files {
		if r.Name != r.ID+"-v2" {
			t.Errorf("record %s is %q, want its last write", r.ID, r.Name)
		}
	}
	held, err := reg.ListCached()
	if err != nil || !reflect.DeepEqual(files, held) {
		t.Errorf("from memory (%v) is not as the files say", err)
	}
	names, _ := reg.runs.Names()
	if len(names) != n {
		t.Errorf("%d files in runs/, want %d records: %v", len(names), n, names)
	}
}

// A listing the server answers shows a record still being written behind as it is
// about to land (running, with its pid), not the file's older version (starting).
func TestHeldRecordsShowWhatIsBeingWritten(t *testing.T) {
	reg := openReg(t, t.TempDir())
	s, err := New(WithRegistry(reg), WithDefaults(shortLeases()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		s.Shutdown(ctx)
	})
	id, err := s.Spawn(childSpec(false, "sleep"))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := s.get(id)
	// What a write behind holds while the registry lock is busy: a newer record than
	// the file's (here, one the file never had).
	r.mu.Lock()
	ahead := r.recordLocked()
	ahead.Detail = "written-behind"
	r.wb.pending = &ahead
	r.mu.Unlock()
	held, err := s.HeldRecords()
	r.mu.Lock()
	r.wb.pending = nil // no writer was started for it: nothing else clears it
	r.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := reg.List()
	for _, rec := range files {
		if rec.ID == id && rec.Detail == "written-behind" {
			t.Fatalf("the file already has the pending record: the test shows nothing")
		}
	}
	for _, rec := range held {
		if rec.ID == id {
			if rec.Detail != "written-behind" || rec.State != Running || rec.StateDir == "" {
				t.Fatalf("held record %+v, want the pending one, running, with its state dir", rec)
			}
			return
		}
	}
	t.Fatalf("run %s not in the held records", id)
}

// Two sections of one group write one record and the newest write cannot land: both
// are failed, not only the one whose write was newest, since neither is on disk.
func TestGroupFailsEverySectionOfAFailedRecord(t *testing.T) {
	reg := openReg(t, t.TempDir())
	if err := reg.grouped(func() error { return reg.createIn(Record{ID: "r001", Name: "orig", State: Running}) }); err != nil {
		t.Fatal(err)
	}
	a := &groupSection{done: make(chan struct{}), fn: func() error {
		return reg.updateIn(true, "r001", 1, func(r *Record) { r.Name = "a" })
	}}
	b := &groupSection{done: make(chan struct{}), fn: func() error {
		if err := reg.updateIn(true, "r001", 1, func(r *Record) { r.Name = "b" }); err != nil {
			return err
		}
		// its temp file cannot be made (a directory has its name): it cannot land
		if err := os.Mkdir(reg.runs.Join(reg.group.latest["r001.json"].tmp), 0o700); err != nil {
			t.Fatal(err)
		}
		return nil
	}}
	reg.mu.Lock()
	reg.runGroup([]*groupSection{a, b})
	reg.mu.Unlock()
	rec, err := reg.record("r001")
	if err != nil {
		t.Fatal(err)
	}
	if b.err == nil || a.err == nil {
		t.Fatalf("sections told: a %v, b %v; the record on disk is %q", a.err, b.err, rec.Name)
	}
	if rec.Name != "orig" {
		t.Fatalf("the record is %q, want the one before the group", rec.Name)
	}
}

// What ListCached cannot read is set aside only if it is corrupt when read again under
// the lock: a good record is never moved to corrupt/ for a failure of the moment.
func TestListCachedSetsAsideOnlyTheCorrupt(t *testing.T) {
	dir := t.TempDir()
	reg := openReg(t, dir)
	if err := reg.grouped(func() error { return reg.createIn(Record{ID: "r001", Name: "good", State: Running}) }); err != nil {
		t.Fatal(err)
	}
	// A read that fails for no fault of the content (here EISDIR; out of descriptors
	// or an I/O error in life) sets nothing aside.
	if err := os.Mkdir(filepath.Join(dir, "runs", "r003.json"), 0o700); err != nil {
		t.Fatal(err)
	}
	if recs, err := reg.ListCached(); err != nil || len(recs) != 1 || recs[0].Name != "good" {
		t.Fatalf("with an unreadable entry: %+v, %v", recs, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "runs", "r003.json")); err != nil {
		t.Fatalf("what could not be read for no fault of its content was moved: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "runs", "r002.json"), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	recs, err := reg.ListCached()
	if err != nil || len(recs) != 1 {
		t.Fatalf("with a corrupt record: %+v, %v", recs, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "runs", "r002.json")); !os.IsNotExist(err) {
		t.Fatalf("the corrupt record was not set aside: %v", err)
	}
}
