package castplay

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

// A recording of asciinema 3 (version 3) plays as well as Corral's own: its size is in
// "term", its times are intervals since the event before, and its comment lines are
// not events.
func TestIndexOfAVersion3Recording(t *testing.T) {
	rec := `{"version": 3, "term": {"cols": 100, "rows": 30}, "idle_time_limit": 2}
[0.5, "o", "a"]
# a comment
[0.25, "r", "120x40"]
[1.0, "o", "b"]
`
	ix, err := Load(strings.NewReader(rec))
	if err != nil {
		t.Fatal(err)
	}
	if ix.Cols != 100 || ix.Rows != 30 {
		t.Errorf("size %d×%d, want 100×30", ix.Cols, ix.Rows)
	}
	var at []time.Duration
	for _, e := range ix.Events {
		at = append(at, e.At)
	}
	if want := []time.Duration{500 * time.Millisecond, 750 * time.Millisecond, 1750 * time.Millisecond}; !slices.Equal(at, want) {
		t.Errorf("event times %v, want %v", at, want)
	}
	var got []string
	if err := ix.Read(strings.NewReader(rec), 0, len(ix.Events), func(kind, data string) { got = append(got, kind+data) }); err != nil {
		t.Fatal(err)
	}
	if want := []string{"oa", "r120x40", "ob"}; !slices.Equal(got, want) {
		t.Errorf("read %q, want %q", got, want)
	}
}

// What is not a recording is refused with ErrNotCast and the reason.
func TestHeaderRefusals(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "the file is empty"},
		{`{"version": 1, "width": 80, "height": 24}`, "version 1"},
		{`{"version": 2}`, "no terminal size"},
		{"not json", "version 2 or 3"},
	} {
		_, err := Load(strings.NewReader(c.in))
		if !errors.Is(err, ErrNotCast) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want ErrNotCast saying %q", c.in, err, c.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string][3]int{"80x24": {80, 24, 1}, "0x24": {}, "80x": {}, "x": {}, "80": {}, "-1x5": {}} {
		c, r, ok := ParseSize(in)
		if got := [3]int{c, r, map[bool]int{true: 1}[ok]}; ok != (want[2] == 1) || ok && got != want {
			t.Errorf("ParseSize(%q) = %d, %d, %v", in, c, r, ok)
		}
	}
}
