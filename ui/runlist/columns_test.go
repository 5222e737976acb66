package runlist

import "testing"

// The run list's columns: everything when it fits; then pid, age and kind go first,
// the full status before the rest of the name; one state/status column when narrow.
func TestListColumnsByPriority(t *testing.T) {
	n := listNeed{name: 24, status: 22, short: 14, pid: 5, state: stateW}
	for _, c := range []struct {
		w    int
		want listCols
	}{
		{100, listCols{name: 24, kind: 4, state: 8, status: 22, age: 4, pid: 5}},
		{70, listCols{name: 24, kind: 4, state: 8, status: 22, age: 4}},
		{58, listCols{name: 24, state: 8, status: 22}},
		{50, listCols{name: 24, state: 8, status: 14}},
		{40, listCols{name: 14, state: 8, status: 14}},
		{24, listCols{name: 10, state: 11, merged: true}},
	} {
		if got := listColumns(c.w, n); got != c.want {
			t.Errorf("width %d: %+v, want %+v", c.w, got, c.want)
		}
	}
	// The demo at 130 columns: escape markers stay (before, they went first).
	demo := listNeed{name: 10, status: 23, short: 15, marks: 2, pid: 5, state: stateW}
	want := listCols{name: 10, kind: 4, state: 15, marks: 2, merged: true}
	if got := listColumns(37, demo); got != want {
		t.Errorf("demo at 37: %+v, want %+v", got, want)
	}
}
