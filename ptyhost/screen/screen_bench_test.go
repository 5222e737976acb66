package screen

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/hinshun/vt10x"
)

// The inputs the emulator was first measured with, about 1 MiB each, fed in
// 32 KiB chunks (the host's read size) into a 120×40 screen.
const benchCols, benchRows, benchChunk = 120, 40, 32 << 10

// benchPlain is scrolling ASCII: 100-character lines and CRLF.
func benchPlain() []byte {
	line := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 3)[:100] + "\r\n"
	return []byte(strings.Repeat(line, (1<<20)/len(line)))
}

// benchSGR is ls --color / syntax-highlighter style: an SGR every few characters.
func benchSGR() []byte {
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, "\x1b[01;3%dm", i%8)
		case 1:
			fmt.Fprintf(&b, "\x1b[38;5;%dm", i%256)
		case 2:
			fmt.Fprintf(&b, "\x1b[38;2;%d;%d;%dm", i%256, (i*7)%256, (i*13)%256)
		case 3:
			b.WriteString("\x1b[0m")
		}
		b.WriteString("word")
		if i%20 == 19 {
			b.WriteString("\r\n")
		}
	}
	return []byte(b.String())
}

// benchRedraw is a full-screen app: synchronized frames of cursor-addressed
// rows with truecolour and 256-colour runs and EL.
func benchRedraw() []byte {
	var b strings.Builder
	for f := 0; b.Len() < 1<<20; f++ {
		b.WriteString("\x1b[?2026h")
		for y := 1; y <= benchRows; y++ {
			fmt.Fprintf(&b, "\x1b[%d;1H", y)
			for x := 0; x < benchCols; x += 12 {
				fmt.Fprintf(&b, "\x1b[38;2;%d;%d;200;48;5;%dm%-12s", (x+f)%256, y*5, (x+y)%256, "cell text")
			}
			b.WriteString("\x1b[0m\x1b[K")
		}
		b.WriteString("\x1b[?2026l")
	}
	return []byte(b.String())
}

// benchWrite feeds in and, for a Screen, renders the final frame: plain text (and
// its colours) is emulated only when the screen is looked at and only as far as it
// can still show (screen_lazy.go), so Write alone is what the run's reader pays and
// the Render is the catch-up a UI pays once per frame.
func benchWrite(b *testing.B, in []byte, w io.Writer) {
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		for p := in; len(p) > 0; {
			n := min(len(p), benchChunk)
			_, _ = w.Write(p[:n])
			p = p[n:]
		}
		if s, ok := w.(*Screen); ok {
			_ = s.Render()
		}
	}
}

func BenchmarkScreenWritePlain(b *testing.B) {
	benchWrite(b, benchPlain(), benchScreen())
}

func BenchmarkScreenWriteSGR(b *testing.B) {
	benchWrite(b, benchSGR(), benchScreen())
}

func BenchmarkScreenWriteRedraw(b *testing.B) {
	benchWrite(b, benchRedraw(), benchScreen())
}

// benchScreen is a screen as a supervisor makes them: keeping a history of
// benchHistory lines (config's scrollback_lines).
func benchScreen() *Screen {
	s := NewScreen(benchCols, benchRows)
	s.SetHistoryLimit(benchHistory)
	return s
}

const benchHistory = 10000

// BenchmarkScreenBareVT10x is vt10x alone on the same inputs: the wrapper's
// cost is the difference.
func BenchmarkScreenBareVT10x(b *testing.B) {
	for _, in := range benchInputs()[:3] {
		b.Run(in.name, func(b *testing.B) {
			benchWrite(b, in.data, vt10x.New(vt10x.WithSize(benchCols, benchRows)))
		})
	}
}

type benchInput struct {
	name string
	data []byte
}

// benchInputs are the inputs above by name: plain, sgr, redraw, cjk.
func benchInputs() []benchInput {
	return []benchInput{{"plain", benchPlain()}, {"sgr", benchSGR()}, {"redraw", benchRedraw()}, {"cjk", benchCJK()}}
}

// BenchmarkScreenRender renders a full 120×40 frame with a colour change every
// 12 cells.
func BenchmarkScreenRender(b *testing.B) {
	s := NewScreen(benchCols, benchRows)
	s.Write(benchRedraw())
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Render()
	}
}

// benchCJK is CJK-heavy text: lines of wide characters with a
// coloured word now and then, as a Chinese README in a pager.
func benchCJK() []byte {
	line := strings.Repeat("终端保真度测试你好世界，", 4) + "\x1b[1;32mok\x1b[0m 全角字符\r\n"
	return []byte(strings.Repeat(line, (1<<20)/len(line)))
}

func BenchmarkScreenWriteCJK(b *testing.B) {
	benchWrite(b, benchCJK(), benchScreen())
}
