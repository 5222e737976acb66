package runs

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
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
		if err := reg.grouped(func() error { return reg.createIn(Record{RunID: fmt.Sprintf("r%03d", i), State: Running}) }); err != nil {
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
		if r.Name != r.RunID+"-v2" {
			t.Errorf("record %s is %q, want its last write", r.RunID, r.Name)
		}
	}
	held, err := reg.ListCached()
	if err != nil || !reflect.DeepEqual(files, held) {
		t.Errorf("from memory (%v) is not as the files say", err)
	}
	names, _ := reg.runs.names()
	if len(names) != n {
		t.Errorf("%d files in runs/, want %d records: %v", len(names), n, names)
	}
}
