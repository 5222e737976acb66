package runs

import (
	"encoding/json"
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
	"time"

	"corral/runs/internal/statefile"
)

// settle makes reg's last listing of the runs directory count as read long after the
// directory last changed (as collide does for a record): the next listings go by the
// names kept while the directory keeps its stamp.
func settle(t *testing.T, reg *Registry) {
	t.Helper()
	st, err := reg.runs.Version()
	if err != nil {
		t.Skipf("no directory version here: %v", err)
	}
	names, err := reg.runs.Names()
	if err != nil {
		t.Fatal(err)
	}
	reg.listed.keep(st, time.Now().Add(namesRacyAge+time.Second), names)
}

func namesOf(recs []Record) map[string]string {
	m := map[string]string{}
	for _, r := range recs {
		m[r.ID] = r.Name
	}
	return m
}

// While the runs directory has not changed, a listing takes this registry's own
// records as kept, without a stat (here a stale copy of one is planted to show it),
// and still reads every other owner's: one written in place is listed as written.
// Anything renamed in (another instance taking one of its runs over), made or
// removed changes the directory, and the listing reads it again: never the copy.
func TestListCachedFromKeptNamesSeesEveryChange(t *testing.T) {
	dir := t.TempDir()
	reg, other := openReg(t, dir), openReg(t, dir)
	for _, id := range []string{"r001", "r002"} {
		if err := reg.create(Record{ID: id, Name: "ours", State: Running}); err != nil {
			t.Fatal(err)
		}
	}
	if err := other.create(Record{ID: "r003", Name: "theirs", State: Running}); err != nil {
		t.Fatal(err)
	}
	list := func(what string, want map[string]string) {
		t.Helper()
		recs, err := reg.ListCached()
		if err != nil {
			t.Fatal(err)
		}
		if got := namesOf(recs); !maps.Equal(got, want) {
			t.Fatalf("%s: listed %v, want %v", what, got, want)
		}
	}
	list("first", map[string]string{"r001": "ours", "r002": "ours", "r003": "theirs"})

	stale, _ := reg.record("r001")
	stale.Name = "kept"
	collide(t, reg, "r001", stale, time.Now())
	settle(t, reg)
	list("own record from memory", map[string]string{"r001": "kept", "r002": "ours", "r003": "theirs"})

	// Another owner's record written in place (same inode, the directory unchanged).
	theirs, _ := other.record("r003")
	theirs.Name = "rewritten in place, longer"
	b, err := json.Marshal(theirs)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other.recordPath("r003"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	list("in place", map[string]string{"r001": "kept", "r002": "ours", "r003": "rewritten in place, longer"})

	// The other instance takes r001 over: renamed in, over the copy kept.
	if err := other.withLock(func() error {
		rec := stale
		rec.OwnerInstanceID, rec.LeaseEpoch, rec.Name = other.instance, 2, "taken over"
		return other.write(rec)
	}); err != nil {
		t.Fatal(err)
	}
	list("taken over", map[string]string{"r001": "taken over", "r002": "ours", "r003": "rewritten in place, longer"})

	settle(t, reg)
	if err := other.create(Record{ID: "r004", Name: "new", State: Running}); err != nil {
		t.Fatal(err)
	}
	list("made", map[string]string{"r001": "taken over", "r002": "ours", "r003": "rewritten in place, longer", "r004": "new"})

	settle(t, reg)
	if err := os.Remove(reg.recordPath("r002")); err != nil {
		t.Fatal(err)
	}
	list("removed", map[string]string{"r001": "taken over", "r003": "rewritten in place, longer", "r004": "new"})
}

// Sorting by index gives the order slices.SortFunc gives the records themselves,
// ties included (the same sort, the same comparisons).
func TestSortByCreationAsSortFunc(t *testing.T) {
	at := time.Date(2026, 11, 29, 9, 0, 0, 0, time.UTC)
	for n := range 300 {
		recs := make([]Record, n)
		for i := range recs {
			recs[i] = Record{ID: string(rune('a'+i%26)) + string(rune('a'+i/26%26)), PID: i,
				CreatedAt: at.Add(time.Duration(rand.IntN(n/3+1)) * time.Second)}
		}
		want := slices.Clone(recs)
		slices.SortFunc(want, func(a, b Record) int { return a.CreatedAt.Compare(b.CreatedAt) })
		sortByCreation(recs)
		for i := range recs {
			if recs[i].PID != want[i].PID {
				t.Fatalf("%d records: at %d, record %d, SortFunc's is %d", n, i, recs[i].PID, want[i].PID)
			}
		}
	}
}

// Kept names are listed again only while the directory keeps its stamp, that stamp
// was read well after it changed, it is finer than whole seconds, and they were read
// less than listedFor ago.
func TestListedDirUnchangedOnlyWhileTrusted(t *testing.T) {
	reg := openReg(t, t.TempDir())
	st, err := reg.runs.Version()
	if err != nil {
		t.Skipf("no directory version here: %v", err)
	}
	if st.Changed()%int64(time.Second) == 0 {
		t.Skip("this file system's stamps are whole seconds")
	}
	after := func(s statefile.Stamp, d time.Duration) time.Time { return time.Unix(0, s.Changed()).Add(d) }
	var l listedDir
	l.keep(st, after(st, namesRacyAge+time.Millisecond), []string{"r001"})
	if _, ok := l.unchanged(st); !ok {
		t.Fatal("names read well after the change, a moment ago: not listed again")
	}
	if _, ok := l.unchanged(statefile.Stamp{}); ok {
		t.Error("listed again under another stamp")
	}
	l.read = time.Now().Add(-listedFor)
	if _, ok := l.unchanged(st); ok {
		t.Error("names read listedFor ago listed again")
	}
	l.keep(st, after(st, namesRacyAge/2), []string{"r001"})
	if _, ok := l.unchanged(st); ok {
		t.Error("names read within namesRacyAge of the change listed again")
	}
	whole := st
	whole.Mtime -= whole.Mtime % int64(time.Second)
	whole.Ctime -= whole.Ctime % int64(time.Second)
	l.keep(whole, after(whole, namesRacyAge+time.Second), []string{"r001"})
	if _, ok := l.unchanged(whole); ok {
		t.Error("a whole-second stamp trusted")
	}
}
