package keys

import "fmt"

// MouseKind is what happened to the mouse.
type MouseKind uint8

const (
	MousePress   MouseKind = iota + 1 // a button went down; the wheel turned (a press of button 64–67)
	MouseRelease                      // a button went up
	MouseMotion                       // the mouse moved (with a button held, or none)
)

// MouseNone is Mouse.Button for no button (motion with none held, a release of an
// unknown button).
const MouseNone = -1

// Mouse is a mouse event in a run's terminal, at a 0-based cell of it. It travels as
// an Item and is encoded at the run with its app's mouse modes when it arrives
// (EncodeMouse), as a key is: never with the modes of a frame the UI last saw.
type Mouse struct {
	Kind MouseKind `json:"kind"`
	// Button is xterm's code for it: 0 left, 1 middle, 2 right, 64–67 the wheel (up,
	// down, left, right), 128–131 buttons 8–11; MouseNone for none.
	Button int  `json:"button"`
	X      int  `json:"x"`
	Y      int  `json:"y"`
	Shift  bool `json:"shift,omitempty"`
	Alt    bool `json:"alt,omitempty"`
	Ctrl   bool `json:"ctrl,omitempty"`
}

// xterm mouse codes: the low bits name the button, the rest are flags.
const (
	mouseCodeRelease = 3 // legacy release (button unknown); also "no button" in motion
	mouseFlagShift   = 4
	mouseFlagAlt     = 8
	mouseFlagCtrl    = 16
	mouseFlagMotion  = 32
	mouseLegacyMax   = 222 // largest 0-based coordinate the legacy form can carry: 222+33 = 255
)

func isWheel(button int) bool { return button >= 64 && button <= 67 }

// EncodeMouse is what xterm sends for ev while the app has modes m: SGR
// (CSI < b ; x+1 ; y+1 M, or m for a release) with mode 1006, else the legacy form
// CSI M b+32 x+33 y+33, which cannot carry a coordinate above 222. b is the button's
// code, plus 32 for motion and 4/8/16 for shift/alt/ctrl. Mode 9 (X10) reports
// presses only and, like xterm, without modifiers; 1000 adds releases (the wheel has
// presses only); 1002 adds motion while a button is held; 1003 all motion.
//
// It reports false when the app asked for no such event (or for no mouse at all),
// for a cell off the screen or beyond the legacy form, and for an event with no
// encoding (a press of no button, a wheel release).
func EncodeMouse(ev Mouse, m Modes) ([]byte, bool) {
	if ev.X < 0 || ev.Y < 0 || !mouseReports(m.Mouse, ev) {
		return nil, false
	}
	release, motion := ev.Kind == MouseRelease, ev.Kind == MouseMotion
	code := ev.Button
	switch {
	case ev.Button == MouseNone && (release || motion):
		code = mouseCodeRelease
	case ev.Button < 0, release && isWheel(ev.Button):
		return nil, false
	}
	if release && !m.MouseSGR {
		code = mouseCodeRelease // the legacy form cannot say which button went up
	}
	if motion {
		code += mouseFlagMotion
	}
	if m.Mouse != 9 {
		code += modFlags(ev)
	}
	if m.MouseSGR {
		final := 'M'
		if release {
			final = 'm'
		}
		return fmt.Appendf(nil, "\x1b[<%d;%d;%d%c", code, ev.X+1, ev.Y+1, final), true
	}
	if ev.X > mouseLegacyMax || ev.Y > mouseLegacyMax {
		return nil, false
	}
	return []byte{0x1b, '[', 'M', byte(code + 32), byte(ev.X + 33), byte(ev.Y + 33)}, true
}

// mouseReports reports whether xterm mouse mode mode sends ev.
func mouseReports(mode int, ev Mouse) bool {
	switch mode {
	case 9:
		return ev.Kind == MousePress
	case 1000:
		return ev.Kind != MouseMotion
	case 1002:
		return ev.Kind != MouseMotion || ev.Button != MouseNone
	case 1003:
		return ev.Kind != 0
	}
	return false
}

func modFlags(ev Mouse) int {
	f := 0
	if ev.Shift {
		f += mouseFlagShift
	}
	if ev.Alt {
		f += mouseFlagAlt
	}
	if ev.Ctrl {
		f += mouseFlagCtrl
	}
	return f
}
