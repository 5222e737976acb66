package config

import (
	"errors"
	"strings"
	"testing"
)

// [ui] mouse: off unless the file says true; a wrong type or an unknown
// key is an error on its line.
func TestUIMouse(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      bool
	}{
		{"absent", "[defaults]\ngrace = \"5s\"\n", false},
		{"on", "[ui]\nmouse = true\n", true},
		{"off", "[ui]\nmouse = false\n", false},
	} {
		f, err := Parse("corral.toml", []byte(c.doc))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if f.UI.Mouse != c.want {
			t.Errorf("%s: mouse = %v, want %v", c.name, f.UI.Mouse, c.want)
		}
	}
	for _, c := range []struct{ doc, key, msg string }{
		{"[ui]\nmouse = \"yes\"\n", "mouse", "want true or false"},
		{"[ui]\nmose = true\n", "mose", `did you mean "mouse"?`},
	} {
		_, err := Parse("corral.toml", []byte(c.doc))
		var e *Error
		if !errors.As(err, &e) || e.Line != 2 || e.In != "[ui]" || e.Key != c.key || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%q: err = %v, want line 2 [ui] %s: …%s", c.doc, err, c.key, c.msg)
		}
	}
	_, err := Parse("corral.toml", []byte("mouse = true\n"))
	if err == nil || !strings.Contains(err.Error(), "[ui]") {
		t.Errorf("top-level mouse: err = %v, want a hint at [ui]", err)
	}
}

// The effective configuration keeps mouse = true, and reads back the same.
func TestUIMouseEffective(t *testing.T) {
	f, err := Parse("corral.toml", []byte("[ui]\nmouse = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	text := f.Effective(Default())
	if !strings.Contains(text, "[ui]\nmouse = true\n") {
		t.Fatalf("effective config lacks [ui] mouse:\n%s", text)
	}
	back, err := Parse("corral.toml", []byte(text))
	if err != nil || !back.UI.Mouse {
		t.Fatalf("read back: mouse %v, err %v", back != nil && back.UI.Mouse, err)
	}
}

// [ui] window_size: one of the three policies, read back from the
// effective configuration; another value or type is an error on its line.
func TestUIWindowSize(t *testing.T) {
	for _, want := range []string{WindowLatest, WindowSmallest, WindowLargest} {
		f, err := Parse("corral.toml", []byte("[ui]\nwindow_size = \""+want+"\"\n"))
		if err != nil || f.UI.WindowSize != want {
			t.Fatalf("%s: %q, %v", want, f.UI.WindowSize, err)
		}
		back, err := Parse("corral.toml", []byte(f.Effective(Default())))
		if err != nil || back.UI.WindowSize != want || back.UI.Mouse {
			t.Errorf("%s read back: %+v, %v", want, back.UI, err)
		}
	}
	f, err := Parse("corral.toml", []byte("[ui]\nmouse = true\n"))
	if err != nil || f.UI.WindowSize != "" {
		t.Fatalf("absent: %q, %v", f.UI.WindowSize, err)
	}
	for _, c := range []struct{ doc, msg string }{
		{"[ui]\nwindow_size = \"biggest\"\n", `want "latest" or "smallest" or "largest"`},
		{"[ui]\nwindow_size = 3\n", "want"},
		{"[ui]\nwindow_sise = \"latest\"\n", `did you mean "window_size"?`},
	} {
		_, err := Parse("corral.toml", []byte(c.doc))
		var e *Error
		if !errors.As(err, &e) || e.Line != 2 || e.In != "[ui]" || !strings.Contains(e.Msg, c.msg) {
			t.Errorf("%q: err = %v, want line 2 [ui]: …%s", c.doc, err, c.msg)
		}
	}
}
