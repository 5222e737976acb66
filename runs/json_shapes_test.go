package runs

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

var updateShapes = flag.Bool("update-shapes", false, "rewrite testdata/shapes from the current encoding")

// filled sets every exported field of v, nested structs, pointers, slices and maps
// included, to a value that is not zero, so that a shape's JSON shows every key it can
// have: a field renamed, moved or retagged changes the bytes.
func filled(v reflect.Value, depth int) {
	if depth > 8 {
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			v.Set(reflect.ValueOf(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)))
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				filled(v.Field(i), depth+1)
			}
		}
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		filled(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Slice:
		s := reflect.MakeSlice(v.Type(), 1, 1)
		filled(s.Index(0), depth+1)
		v.Set(s)
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		filled(k, depth+1)
		filled(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.String:
		v.SetString("s")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	}
}

// The JSON of a run's info (ls --json, poll --json, info, the API's messages), of its
// record on disk and of its report (run --json) keeps its keys, their order and what
// each omits: the shapes are compared byte for byte with testdata/shapes, for every
// field set and for none. A record is also read back from its JSON as it was.
func TestJSONShapes(t *testing.T) {
	full := func(p any) any { filled(reflect.ValueOf(p).Elem(), 0); return p }
	shapes := []struct {
		name string
		v    any
	}{
		{"info-zero", Info{}},
		{"info-full", full(&Info{})},
		{"record-zero", Record{}},
		{"record-full", full(&Record{})},
		{"report-zero", Report{}},
		{"report-full", full(&Report{})},
		{"report-unknown-agent", Report{ID: "r1", AgentStatus: AgentStatus{Agent: "claude"}, OutputTail: "<a&b>\x1b"}},
		{"report-new", NewReport(*full(&Info{}).(*Info), []Escapee{{}}, []byte("tail"))},
	}
	for _, s := range shapes {
		got, err := json.MarshalIndent(s.v, "", "  ")
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		path := filepath.Join("testdata", "shapes", s.name+".json")
		if *updateShapes {
			if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if string(got)+"\n" != string(want) {
			t.Errorf("%s: the JSON changed:\ngot:\n%s\nwant:\n%s", s.name, got, want)
		}
	}
	for _, name := range []string{"record-full", "record-zero"} {
		b, err := os.ReadFile(filepath.Join("testdata", "shapes", name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var rec Record
		if err := json.Unmarshal(b, &rec); err != nil {
			t.Fatal(err)
		}
		again, err := json.MarshalIndent(rec, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if string(again)+"\n" != string(b) {
			t.Errorf("%s read back and written again differs:\n%s", name, again)
		}
	}
}
