package terminal

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"corral/ptyhost/screen"
	"corral/ui/internal/uitest"
)

func TestScreenErrorShownInTitle(t *testing.T) {
	tm := newTest("")
	tm.SetSize(60, 6)
	s := &errScreen{Screen: screen.NewScreen(58, 4)}
	tm.ShowRun(uitest.LiveRun("r1", "claude", true), s)
	if v := ansi.Strip(tm.View()); !strings.Contains(v, "⚠ vt10x: index out of range") {
		t.Errorf("the recovered emulator error is not shown:\n%s", v)
	}
}

type errScreen struct{ *screen.Screen }

func (e *errScreen) State() screen.ScreenState {
	st := e.Screen.State()
	st.Err = "vt10x: index out of range"
	return st
}

func TestSynchronizedUpdateHoldsTheFrame(t *testing.T) {
	tm := newTest("")
	tm.SetSize(40, 5)
	tm.SetNow(uitest.T0)
	s := screenWith(38, 3, "old frame")
	tm.ShowRun(uitest.LiveRun("r1", "app", true), s)
	_ = tm.View()
	s.Write([]byte("\x1b[?2026h\x1b[H\x1b[2Jhalf"))
	if v := ansi.Strip(tm.View()); !strings.Contains(v, "old frame") {
		t.Fatalf("a half-drawn synchronized frame was shown:\n%s", v)
	}
	s.Write([]byte(" drawn\x1b[?2026l"))
	if v := ansi.Strip(tm.View()); !strings.Contains(v, "half drawn") {
		t.Fatalf("the finished frame was not shown:\n%s", v)
	}
	s.Write([]byte("\x1b[?2026h\x1b[Hstuck"))
	_ = tm.View()
	tm.SetNow(uitest.T0.Add(syncHold))
	if v := ansi.Strip(tm.View()); !strings.Contains(v, "stuck") {
		t.Fatalf("an app stuck mid-update was never drawn:\n%s", v)
	}
}
