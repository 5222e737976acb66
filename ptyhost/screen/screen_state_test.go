package screen

import (
	"bytes"
	"strings"
	"testing"
)

func TestScreenReplies(t *testing.T) {
	cases := []struct {
		name, in, want string
	}{
		{"DA1", "\x1b[c", vtDA1Reply},
		{"DA1 0", "\x1b[0c", vtDA1Reply},
		{"DA1 split", "\x1b[", vtDA1Reply}, // completed below
		{"DA2", "\x1b[>c", vtDA2Reply},
		{"DA2 0", "\x1b[>0c", vtDA2Reply},
		{"DECID", "\x1bZ", vtDA1Reply},
		{"DSR", "\x1b[5n", "\x1b[0n"},
		{"CPR answered once", "ab\x1b[6n", "\x1b[1;3R"},
		{"replies in stream order", "\x1b[6n\x1b[c\x1b[2;5H\x1b[6n", "\x1b[1;1R" + vtDA1Reply + "\x1b[2;5R"},
		{"OSC 10/11 queries unanswered", "\x1b]10;?\x07\x1b]11;?\x1b\\", ""},
		{"XTVERSION, kitty query unanswered", "\x1b[>0q\x1b[?u", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			writes := []string{c.in}
			if c.name == "DA1 split" {
				writes = append(writes, "c")
			}
			_, replies := screenOf(t, writes...)
			if got := replies.String(); got != c.want {
				t.Errorf("replies = %q, want %q", got, c.want)
			}
		})
	}
	if _, r, _ := bareRun("\x1b[c"); r != "" {
		t.Errorf("bare vt10x now answers DA1 (%q): drop ours", r)
	}
}

func TestScreenReplyNil(t *testing.T) {
	s := NewScreen(testCols, testRows)
	s.Write([]byte("\x1b[c\x1b[6n"))
	var b bytes.Buffer
	s.SetReply(&b)
	s.Write([]byte("\x1b[c"))
	if b.String() != vtDA1Reply {
		t.Errorf("replies = %q, want only the one asked after SetReply", b.String())
	}
}

func TestScreenTracking(t *testing.T) {
	cases := []struct {
		name   string
		writes []string
		want   func(ScreenState) bool
	}{
		{"bracketed paste on", []string{"\x1b[?2004h"}, func(st ScreenState) bool { return st.Modes.BracketedPaste }},
		{"bracketed paste split", []string{"\x1b[?20", "04h"}, func(st ScreenState) bool { return st.Modes.BracketedPaste }},
		{"bracketed paste off", []string{"\x1b[?2004h", "\x1b[?2004l"}, func(st ScreenState) bool { return !st.Modes.BracketedPaste }},
		{"app cursor", []string{"\x1b[?1h"}, func(st ScreenState) bool { return st.Modes.AppCursor }},
		{"sync output", []string{"\x1b[?2026h"}, func(st ScreenState) bool { return st.SyncOutput }},
		{"sync output ends", []string{"\x1b[?2026h", "x\x1b[?2026l"}, func(st ScreenState) bool { return !st.SyncOutput }},
		{"focus events", []string{"\x1b[?1004h"}, func(st ScreenState) bool { return st.FocusEvents }},
		{"mouse", []string{"\x1b[?1000h\x1b[?1002h\x1b[?1006h"}, func(st ScreenState) bool { return st.MouseMode == 1002 && st.MouseSGR }},
		{"alt screen", []string{"\x1b[?1049h"}, func(st ScreenState) bool { return st.AltScreen }},
		{"cursor hidden", []string{"\x1b[?25l"}, func(st ScreenState) bool { return !st.CursorVisible }},
		{"DECSCUSR", []string{"\x1b[5 q"}, func(st ScreenState) bool { return st.CursorShape == 5 }},
		{"DECSCUSR default", []string{"\x1b[5 q", "\x1b[ q"}, func(st ScreenState) bool { return st.CursorShape == 0 }},
		{"RIS resets tracked modes", []string{"\x1b[?2004;2026h\x1b[3 q\x1bc"}, func(st ScreenState) bool {
			return !st.Modes.BracketedPaste && !st.SyncOutput && st.CursorShape == 0
		}},
		{"title OSC 0 without controls", []string{"\x1b]0;my\x01 ti\u009btle\u202e\x07"}, func(st ScreenState) bool { return st.Title == "my title" }},
		{"title OSC 2 with ST, split", []string{"\x1b]2;✳ Cla", "ude\x1b", "\\"}, func(st ScreenState) bool { return st.Title == "✳ Claude" }},
		{"OSC 1 is not the title", []string{"\x1b]1;icon\x07"}, func(st ScreenState) bool { return st.Title == "" }},
		{"bell", []string{"a\x07"}, func(st ScreenState) bool { return st.Attention == 1 && st.LastNotice == "" }},
		{"OSC 9", []string{"\x1b]9;build done\x07"}, func(st ScreenState) bool { return st.Attention == 1 && st.LastNotice == "build done" }},
		{"OSC 777", []string{"\x1b]777;notify;Claude;needs input\x1b\\"}, func(st ScreenState) bool {
			return st.Attention == 1 && st.LastNotice == "Claude: needs input"
		}},
		{"bell after notice clears it", []string{"\x1b]9;x\x07", "\x07"}, func(st ScreenState) bool { return st.Attention == 2 && st.LastNotice == "" }},
		{"OSC 9;4 progress is no notice", []string{"\x1b]9;4;1;50\x07"}, func(st ScreenState) bool { return st.Attention == 0 }},
		{"BEL ending an OSC is no bell", []string{"\x1b]0;t\x07\x1b]52;c;eA==\x07"}, func(st ScreenState) bool { return st.Attention == 0 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, _ := screenOf(t, c.writes...)
			if st := s.State(); !c.want(st) {
				t.Errorf("state = %+v", st)
			}
		})
	}
}

func TestScreenStringsDropped(t *testing.T) {
	for _, in := range []string{
		"a\x1b]52;c;aGVsbG8=\x07b",     // clipboard write
		"a\x1b]52;c;aGVsbG8=\x1b\\b",   // with ST
		"a\x1bP1$qm\x1b\\b",            // DCS (DECRQSS)
		"a\x1b_Gf=100;aGVsbG8=\x1b\\b", // APC (kitty graphics)
		"a\x1b^privacy\x1b\\b",         // PM
		"a\x1bXstart of string\x1b\\b", // SOS
		"a\x1bkscreen title\x1b\\b",    // screen's title
		"a\x1b]8;;http://x.test/\x07b", // hyperlink: its text stays
		"a\x1bP" + strings.Repeat("q", 5000) + "\x1b\\b",
	} {
		s, _ := screenOf(t, in)
		if got := s.Text(); !strings.HasPrefix(got, "ab\n") {
			t.Errorf("%.30q: text %q", in, got)
		}
		if r := s.Render(); strings.Contains(r, "aGVs") || strings.Contains(r, "52") || strings.Contains(r, "\x1b]") || strings.Contains(r, "\x1bP") {
			t.Errorf("%.30q: trace in Render: %q", in, r)
		}
		if st := s.State(); st.Title != "" {
			t.Errorf("%.30q: title %q", in, st.Title)
		}
	}
}
