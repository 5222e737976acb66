package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"corral/runs"
	"corral/runs/api"
	"corral/runs/cli/listing"
	"corral/runs/cli/parity"
)

// The rule every JSON Corral writes follows (README, "JSON"): keys in
// snake_case, durations as integer milliseconds under a key ending in _ms, times as
// RFC 3339 strings under a key ending in _at (or time). This file checks it twice: on
// every Go type that is marshalled (filled so that omitempty hides nothing), and on
// what the real binary writes (jsonrule_e2e_test.go).

var snakeKey = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)

// durationWords name a duration; a key holding a number under such a name must say
// its unit (_ms). A counter (_total) is a count, not a duration.
var durationWords = []string{"timeout", "grace", "duration", "age", "elapsed", "delay", "interval", "span",
	"left", "cpu", "wait", "ttl"}

// dataMaps are objects whose keys are data, not names: the metrics counters are keyed
// by a reason or a kind ("no-output-timeout", "term"), spelled as everywhere else.
var dataMaps = map[string]bool{"run_exit_total": true, "run_timeout_total": true, "run_cleanup_kill_total": true}

// jsonRuleErrors returns every violation of the rule in one JSON document.
func jsonRuleErrors(doc []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return []string{fmt.Sprintf("not JSON (%v): %.200s", err, doc)}
	}
	var errs []string
	walkJSON("$", "", v, &errs)
	return errs
}

func walkJSON(path, key string, v any, errs *[]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if !dataMaps[key] {
				checkKey(path+"."+k, k, e, errs)
			}
			walkJSON(path+"."+k, k, e, errs)
		}
	case []any:
		for i, e := range x {
			walkJSON(fmt.Sprintf("%s[%d]", path, i), key, e, errs)
		}
	}
}

func checkKey(path, k string, v any, errs *[]string) {
	bad := func(why string) { *errs = append(*errs, fmt.Sprintf("%s: %s", path, why)) }
	if !snakeKey.MatchString(k) {
		bad("key not snake_case")
	}
	_, isNum := v.(json.Number)
	switch {
	case strings.HasSuffix(k, "_ms"):
		if n, ok := v.(json.Number); !ok || strings.ContainsAny(n.String(), ".eE") {
			bad(fmt.Sprintf("an _ms key holds %v, not an integer", v))
		}
	case strings.HasSuffix(k, "_at") || strings.HasSuffix(k, "_since") || k == "time":
		if s, ok := v.(string); !ok {
			bad(fmt.Sprintf("a time holds %v, not an RFC 3339 string", v))
		} else if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
			bad(fmt.Sprintf("time %q is not RFC 3339", s))
		}
	case k == "run" || k == "instance" || k == "owner":
		if _, isString := v.(string); isString { // an object under such a key is fine
			bad("an id is named id (the object's own), run_id or instance_id")
		}
	case isNum && !strings.HasSuffix(k, "_total"):
		for _, w := range strings.Split(k, "_") {
			if slices.Contains(durationWords, w) {
				bad(fmt.Sprintf("a number named like a duration (%q) without _ms", w))
			}
		}
	}
}

// typeRuleErrors finds time.Duration fields that encoding/json would write as bare
// nanoseconds, anywhere in t: a duration must go through a type of its own (_ms).
func typeRuleErrors(t reflect.Type, path string, seen map[reflect.Type]bool, errs *[]string) {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
		if t.Implements(marshaler) { // a named slice or map that writes itself (api.RunList)
			return
		}
		t = t.Elem()
	}
	if t == reflect.TypeFor[time.Duration]() {
		*errs = append(*errs, path+": a time.Duration written as nanoseconds")
		return
	}
	if t.Kind() != reflect.Struct || seen[t] || t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler) {
		return
	}
	seen[t] = true
	for f := range t.Fields() {
		if !f.IsExported() || f.Tag.Get("json") == "-" {
			continue
		}
		typeRuleErrors(f.Type, path+"."+f.Name, seen, errs)
	}
}

var marshaler = reflect.TypeFor[json.Marshaler]()

// filled returns a value of t with every exported field set, so that marshalling it
// shows every key, omitempty or not.
func filled(t reflect.Type, depth int) reflect.Value {
	v := reflect.New(t).Elem()
	if depth > 8 {
		return v
	}
	switch t.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(t.Elem()))
		v.Elem().Set(filled(t.Elem(), depth+1))
	case reflect.Struct:
		if t == reflect.TypeFor[time.Time]() {
			return reflect.ValueOf(time.Date(2026, 11, 24, 23, 0, 0, 0, time.UTC))
		}
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() && f.Type.Kind() != reflect.Interface && f.Type.Kind() != reflect.Func &&
				f.Type.Kind() != reflect.Chan {
				v.Field(i).Set(filled(f.Type, depth+1))
			}
		}
	case reflect.Slice:
		if t == reflect.TypeFor[json.RawMessage]() {
			return reflect.ValueOf(json.RawMessage(`{}`))
		}
		s := reflect.MakeSlice(t, 1, 1)
		s.Index(0).Set(filled(t.Elem(), depth+1))
		return s
	case reflect.Map:
		m := reflect.MakeMap(t)
		m.SetMapIndex(filled(t.Key(), depth+1), filled(t.Elem(), depth+1))
		return m
	case reflect.String:
		v.SetString("k")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(1)
	}
	return v
}

// The checker itself: each kind of violation is found, and a document that keeps the
// rule passes.
func TestJSONRuleChecker(t *testing.T) {
	for doc, want := range map[string]string{
		`{"runId": "r1"}`:                    "not snake_case",
		`{"grace": 5000000000}`:              "without _ms",
		`{"grace_ms": 1.5}`:                  "not an integer",
		`{"created_at": 1764000000}`:         "not an RFC 3339",
		`{"x": {"ended_at": "yesterday"}}`:   "not RFC 3339",
		`{"a": [{"LeaseEpoch": 1}]}`:         "not snake_case",
		`{"run_exit_total": {"Bad-Key": 1}}`: "",
		`{"run_timeout_total": 3, "grace_ms": 5000, "ended_at": "2026-11-24T23:00:00.5Z"}`: "",
	} {
		errs := jsonRuleErrors([]byte(doc))
		got := strings.Join(errs, "; ")
		if (want == "") != (len(errs) == 0) || !strings.Contains(got, want) {
			t.Errorf("%s: got %q, want %q", doc, got, want)
		}
	}
	type bad struct {
		Grace time.Duration `json:"grace_ms"`
	}
	var errs []string
	typeRuleErrors(reflect.TypeFor[bad](), "bad", map[reflect.Type]bool{}, &errs)
	if len(errs) != 1 {
		t.Errorf("a Duration field passed: %v", errs)
	}
}

// Every Go type Corral marshals keeps the rule: the CLI's outputs, the registry's
// records, events and metrics, and both directions of the server protocol. A type
// added to one of these outputs is reached from its root here.
func TestJSONRuleOfEveryType(t *testing.T) {
	roots := []any{
		listing.Run{}, listing.Doc{}, runs.Record{}, runs.Info{}, runs.Report{}, runs.Event{}, runs.Metrics{}, runs.Decision{},
		runs.Output{}, parity.Result{},
		api.Request{}, api.Response{}, api.Error{}, api.StreamMsg{}, api.WireInfo{}, map[string][]api.WireProc{},
	}
	for _, name := range api.Names() { // every operation's argument and reply
		op, _ := api.Lookup(name)
		a, r := op.Zero()
		roots = append(roots, a, r)
	}
	for _, r := range roots {
		rt := reflect.TypeOf(r)
		var errs []string
		typeRuleErrors(rt, rt.String(), map[reflect.Type]bool{}, &errs)
		b, err := json.Marshal(filled(rt, 0).Interface())
		if err != nil {
			t.Errorf("%s: %v", rt, err)
			continue
		}
		errs = append(errs, jsonRuleErrors(b)...)
		for _, e := range errs {
			t.Errorf("%s: %s", rt, e)
		}
	}
}
