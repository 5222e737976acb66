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
