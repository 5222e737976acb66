package api

import (
	"reflect"
	"testing"

	"corral/runs"
)

// Every operation whose reply holds runs (a run's Info, or a list of them) declares
// them, each one: a UI over several hosts sets each run's host through that
// declaration, and a run it missed would show under no host and be routed nowhere.
// (Subscribe is not routed: such a UI subscribes to each host itself, and sets the
// host on what each subscription brings.)
func TestRepliesDeclareTheRunsTheyReturn(t *testing.T) {
	for _, name := range Names() {
		op, _ := Lookup(name)
		if op == Operation(Subscribe) {
			continue
		}
		_, zero := op.Zero()
		if zero == nil {
			continue
		}
		reply := reflect.New(reflect.TypeOf(zero)).Elem()
		held := len(infosIn(reply, true))
		out := op.EachRun(reply.Interface(), func(i *runs.Info) { i.Host = "there" })
		stamped := 0
		for _, i := range infosIn(reflect.ValueOf(out), false) {
			if i.FieldByName("Host").String() == "there" {
				stamped++
			}
		}
		if stamped != held {
			t.Errorf("%s: its reply holds %d runs, %d of them declared (returning)", name, held, stamped)
		}
	}
}

// infosIn is the runs.Info values v's fields hold: a run's Info, one embedded, or a
// list of them. With fill, each list gets two runs first.
func infosIn(v reflect.Value, fill bool) []reflect.Value {
	info := reflect.TypeFor[runs.Info]()
	if v.Kind() != reflect.Struct {
		if v.Kind() == reflect.Slice && v.Type().Elem() == info {
			return listed(v, fill)
		}
		return nil
	}
	var out []reflect.Value
	for i := range v.NumField() {
		f := v.Field(i)
		switch {
		case f.Type() == info:
			out = append(out, f)
		case f.Kind() == reflect.Struct && f.Type().NumField() > 0 && f.Type().Field(0).Type == info && f.Type().Field(0).Anonymous:
			out = append(out, f.Field(0))
		case f.Kind() == reflect.Slice && f.Type().Elem() == info:
			out = append(out, listed(f, fill)...)
		}
	}
	return out
}

func listed(l reflect.Value, fill bool) []reflect.Value {
	if fill {
		l.Set(reflect.MakeSlice(l.Type(), 2, 2))
	}
	out := make([]reflect.Value, l.Len())
	for i := range out {
		out[i] = l.Index(i)
	}
	return out
}

// Over several hosts, what names no run goes where its operation says, and the
// replies merge as it says: listings joined in the hosts' order, counts summed, a
// reply the same from every host (show) taken once.
func TestMergeOverHosts(t *testing.T) {
	for op, want := range map[Operation]Spread{
		List: SpreadListing, Snapshot: SpreadListing, Metrics: SpreadListing, Show: SpreadListing, Trees: SpreadListing,
		Shutdown: SpreadAll, Reconcile: SpreadAll, Spawn: SpreadFirst, Restore: SpreadFirst,
	} {
		if got := op.Spread(); got != want {
			t.Errorf("%s goes to %v, want %v", op.Name(), got, want)
		}
	}
	snap := Snapshot.Merge([]any{SnapshotReply{Runs: RunList{{ID: "a"}}}, SnapshotReply{Runs: RunList{{ID: "b"}, {ID: "c"}}}}).(SnapshotReply)
	if len(snap.Runs) != 3 || snap.Runs[0].ID != "a" || snap.Runs[2].ID != "c" {
		t.Errorf("snapshots joined: %+v", snap.Runs)
	}
	m := Metrics.Merge([]any{runs.Metrics{SpawnTotal: 2, ExitTotal: map[string]int64{"0": 1}}, runs.Metrics{SpawnTotal: 3, ExitTotal: map[string]int64{"0": 4}}}).(runs.Metrics)
	if m.SpawnTotal != 5 || m.ExitTotal["0"] != 5 {
		t.Errorf("metrics summed: %+v", m)
	}
	if got := Shutdown.Merge([]any{ShutdownReply{Ended: 2}, ShutdownReply{Ended: 1}}).(ShutdownReply); got.Ended != 3 {
		t.Errorf("shutdown's ended summed: %d", got.Ended)
	}
	if got := Reconcile.Merge([]any{[]runs.Decision{{}}, []runs.Decision{{}, {}}}).([]runs.Decision); len(got) != 3 {
		t.Errorf("reconcile's decisions joined: %d", len(got))
	}
	if got := Trees.Merge([]any{TreeMap{"a": nil}, TreeMap{"b": nil}}).(TreeMap); len(got) != 2 {
		t.Errorf("trees joined: %v", got)
	}
	if got := Show.Merge([]any{RunRef{ID: "x"}, RunRef{ID: "y"}}).(RunRef); got.ID != "x" {
		t.Errorf("show's reply: %+v, want the first host's", got)
	}
	ids, part, ok := Trees.PerRun(TreesArgs{IDs: []string{"a", "b"}})
	if !ok || len(ids) != 2 || len(part([]string{"b"}).(TreesArgs).IDs) != 1 {
		t.Errorf("trees per run: %v %v", ids, ok)
	}
	if got := Spawn.Started(SpawnReply{ID: "n1"}); got != "n1" {
		t.Errorf("spawn started %q", got)
	}
}
