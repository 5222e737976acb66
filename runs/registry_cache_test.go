package runs

import (
	"encoding/json"
	"errors"
	"testing"
	"time"
)

// collide makes the cache hold stale as the content of id's record file at the stamp
// the file has now, seen at seen: what a stamp collision leaves (ext4 gives a
// rename's freed inode to the next file, and a coarse clock gives two rewrites within
// one tick one time, so two versions of one length share a stamp).
func collide(t *testing.T, reg *Registry, id string, stale Record, seen time.Time) {
	t.Helper()
	st, err := reg.runs.Stamp(id + ".json")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(stale)
	if err != nil {
		t.Fatal(err)
	}
	reg.cache.put(id+".json", stale, b, st, seen)
}

// A write's fence is checked against the record as the file holds it, never against
// a kept copy: with the cache holding this instance's old version at the stamp of a
// file another instance has since taken over, the update is refused (lease lost), and
// the other instance's record stays.
func TestFenceReadsTheFile(t *testing.T) {
	dir := t.TempDir()
	reg := openReg(t, dir)
	if err := reg.create(Record{ID: "r001", Name: "ours", State: Running}); err != nil {
		t.Fatal(err)
	}
	ours, err := reg.record("r001")
	if err != nil {
		t.Fatal(err)
	}
	other := openReg(t, dir) // another server, which took the run over
	if err := other.withLock(func() error {
		rec := ours
		rec.OwnerInstanceID, rec.LeaseEpoch, rec.Name = other.instance, 2, "theirs"
		return other.write(rec)
	}); err != nil {
		t.Fatal(err)
	}
	collide(t, reg, "r001", ours, time.Now().Add(time.Hour))
	err = reg.update("r001", 1, func(r *Record) { r.Name = "over theirs" })
	if !errors.Is(err, ErrLeaseLost) {
		t.Fatalf("update under our old lease: %v, want lease lost", err)
	}
	if rec, _ := other.record("r001"); rec.Name != "theirs" || rec.OwnerInstanceID != other.instance {
		t.Fatalf("the record is %q of %s, want the other instance's", rec.Name, rec.OwnerInstanceID)
	}
}

// A listing does not use a kept record whose stamp was seen within racyAge of the
// version's making: another version made within the same tick may share the stamp.
// Here the stale copy is kept as seen right after the file was written, and the
// listing reads the file.
func TestListCachedRereadsRacyStamps(t *testing.T) {
	reg := openReg(t, t.TempDir())
	if err := reg.create(Record{ID: "r001", Name: "new", State: Running}); err != nil {
		t.Fatal(err)
	}
	stale, _ := reg.record("r001")
	stale.Name = "old"
	collide(t, reg, "r001", stale, time.Now())
	recs, err := reg.ListCached()
	if err != nil || len(recs) != 1 {
		t.Fatalf("listing: %+v, %v", recs, err)
	}
	if recs[0].Name != "new" {
		t.Fatalf("listed %q, the file holds %q", recs[0].Name, "new")
	}
	// Seen long after it was made, the same stamp is the version (the cache is used).
	collide(t, reg, "r001", stale, time.Now().Add(racyAge+time.Second))
	if recs, _ := reg.ListCached(); len(recs) != 1 || recs[0].Name != "old" {
		t.Fatalf("a kept record at a settled stamp was not used: %+v", recs)
	}
}

// A listing that read a version without the lock keeps it only if no write kept a
// newer one meanwhile: its put never lands over the writer's.
func TestListingKeepsNothingOverANewerWrite(t *testing.T) {
	reg := openReg(t, t.TempDir())
	if err := reg.create(Record{ID: "r001", Name: "v1", State: Running}); err != nil {
		t.Fatal(err)
	}
	b1, st1, err := reg.runs.ReadStamped("r001.json", recordCap)
	if err != nil {
		t.Fatal(err)
	}
	v1, err := decodeRecord("r001.json", b1)
	if err != nil {
		t.Fatal(err)
	}
	gen := reg.cache.gen("r001.json") // the listing is about to read v1
	if err := reg.update("r001", 1, func(r *Record) { r.Name = "v3" }); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour) // as if v1 were settled: only the generation refuses it
	reg.cache.putIf("r001.json", v1, b1, st1, later, gen)
	reg.cache.mu.Lock()
	k := reg.cache.kept["r001.json"]
	reg.cache.mu.Unlock()
	if k.rec.Name != "v3" {
		t.Fatalf("the cache keeps %q over the newer write's v3", k.rec.Name)
	}
}
