package api

import (
	"fmt"
	"slices"
	"testing"

	"corral/runs"
)

// Widest names, among many runs, each run with a widest cell, once each, and no
// other: the longest name, the pid of most digits, an ended run's longest status, the
// most escapees.
func TestWidestPicksEachWidestCellOnce(t *testing.T) {
	var infos []runs.Info
	for k := range 500 {
		infos = append(infos, runs.Info{ID: fmt.Sprintf("r%03d", k), Name: "sh", PID: 1000 + k, State: runs.Running})
	}
	infos[100].Name = "a-longer-name"
	infos[200].PID = 123456
	infos[300].State, infos[300].Reason, infos[300].Signal = runs.Exited, runs.NoOutputTimeout, 9
	infos[400].Escapees = 3
	infos[450].Name, infos[450].PID = "a-longer-name-still", 1234567 // two cells, one run
	var got []string
	for _, i := range Widest(infos[:40], infos[40:]) {
		got = append(got, i.ID)
	}
	slices.Sort(got)
	if want := []string{"r300", "r400", "r450"}; !slices.Equal(got, want) {
		t.Errorf("widest %v, want %v", got, want)
	}
	if w := Widest(infos[:40], infos[40:100]); len(w) != 0 {
		t.Errorf("%d runs widest where none is wider than the listed runs", len(w))
	}
	if w := Widest(nil, infos[:1]); len(w) != 1 {
		t.Errorf("over no listed run: widest %d runs, want the one", len(w))
	}
}
