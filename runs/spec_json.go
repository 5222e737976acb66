package runs

import (
	"bytes"
	"encoding/json"
	"time"
)

// Every JSON Corral writes names its keys in snake_case, gives durations as integer
// milliseconds in keys ending in _ms and times as RFC 3339 (README, "JSON"). A Spec's
// durations are time.Duration in Go, which encoding/json would write as nanoseconds
// under a bare name, so they cross JSON through specJSON.

// specFields is Spec without its methods, so specJSON can embed it.
type specFields Spec

type specJSON struct {
	specFields
	TimeoutMS         int64 `json:"timeout_ms,omitempty"`
	NoOutputTimeoutMS int64 `json:"no_output_timeout_ms,omitempty"`
	GraceMS           int64 `json:"grace_ms,omitempty"`
}

// legacySpec holds the keys of records written before that rule: durations in
// nanoseconds under bare names. They are read, never written.
type legacySpec struct {
	Timeout         *int64 `json:"timeout"`
	NoOutputTimeout *int64 `json:"no_output_timeout"`
	Grace           *int64 `json:"grace"`
}

// MarshalJSON writes the durations as milliseconds.
func (s Spec) MarshalJSON() ([]byte, error) {
	return json.Marshal(specJSON{specFields: specFields(s), TimeoutMS: Millis(s.Timeout),
		NoOutputTimeoutMS: Millis(s.NoOutputTimeout), GraceMS: Millis(s.Grace)})
}

// UnmarshalJSON reads the _ms keys, or the nanosecond keys of an older record.
func (s *Spec) UnmarshalJSON(b []byte) error {
	var j specJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = Spec(j.specFields)
	s.Timeout, s.NoOutputTimeout, s.Grace = FromMillis(j.TimeoutMS), FromMillis(j.NoOutputTimeoutMS), FromMillis(j.GraceMS)
	if !legacyKeys(b) {
		return nil // a second decode for keys that are not there: a third of a list's decoding
	}
	var old legacySpec
	if json.Unmarshal(b, &old) != nil {
		return nil
	}
	for _, f := range []struct {
		ns  *int64
		dst *time.Duration
		ms  int64
	}{{old.Timeout, &s.Timeout, j.TimeoutMS}, {old.NoOutputTimeout, &s.NoOutputTimeout, j.NoOutputTimeoutMS},
		{old.Grace, &s.Grace, j.GraceMS}} {
		if f.ns != nil && f.ms == 0 {
			*f.dst = time.Duration(*f.ns)
		}
	}
	return nil
}

// legacyKeys reports whether b may hold a key of legacySpec: the bare names in
// quotes, in any case (the decoder matches keys so). A key spelled with escapes is
// not seen, as no Corral wrote one.
func legacyKeys(b []byte) bool {
	l := bytes.ToLower(b)
	return bytes.Contains(l, []byte(`timeout"`)) || bytes.Contains(l, []byte(`"grace"`))
}

// Millis is d in whole milliseconds for JSON. A nonzero d never becomes 0, which
// means "off" or "the default" for a Spec's durations: under a millisecond it rounds
// away from zero (NoOutputTimeout -1ns, "off", stays negative).
func Millis(d time.Duration) int64 {
	ms := d.Milliseconds()
	switch {
	case ms == 0 && d > 0:
		return 1
	case ms == 0 && d < 0:
		return -1
	}
	return ms
}

// FromMillis is the Duration of a JSON _ms value.
func FromMillis(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }
