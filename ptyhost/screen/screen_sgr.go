package screen

import "strconv"

// SGR, rewritten into the semicolon form vt10x parses (defects #4, #5):
//   - colon sub-parameters (ITU T.416) are translated: "38:2::r:g:b",
//     "38:2:r:g:b" and "38:5:n" become "38;2;r;g;b" and "38;5;n"; "4:0" becomes
//     24 and "4:1"…"4:5" (curly and friends) plain underline 4; other
//     attributes keep their main value and lose the sub-parameters;
//   - underline colour (58, 59) is dropped together with its arguments, which
//     vt10x would otherwise read as attributes of their own ("58;2;1;4;5"
//     would turn on bold, underline and blink);
//   - a truecolour whose red and green are 0 would be stored as a palette index
//     (38;2;0;0;255 → colour 255, light grey): its green goes to 1, which keeps
//     it a truecolour, and the cells written with it carry the exact colour in
//     their key (vtExtra.tc), so Render draws 0,0,b; blanks erased with it keep
//     the green of 1, which no eye can tell apart;
//   - 21 (double underline in ECMA-48 and xterm; vt10x reads "bold off")
//     becomes underline;
//   - an SGR left with nothing is dropped: forwarding "CSI m" would reset;
//   - a foreground of palette 0–7 (30–37, 38;5;0…7) becomes the truecolour
//     0,1,n (vt10x colour 256+n), which setChar does not brighten when bold is
//     on (state.go adds 8 to a bold FG below 8); Render turns 256+n back into
//     palette n, so bold leaves the colour alone as in tmux.
//     A real truecolour 0,0…1,0…7 goes to 0,2,n to keep the two apart.
//
// Dim (2), hidden (8), strike (9), overline (53), the underline's style (4:n, 21)
// and colour (58) have no vt10x bit: penSGR (screen_cells.go) follows them beside
// it and the cells written with them carry them in their key. vt10x ignores 53 and
// 55, so they go on unchanged.

// sgrVerbatim reports whether the current "CSI … m" needs none of the rewrites above,
// so it can go to vt10x as it came: plain numbers only, none that is rewritten or
// dropped, extended colours whole and in range. Most SGRs are like that, and
// rebuilding them was a fifth of a Screen's Write on coloured text.
func (s *Screen) sgrVerbatim() bool {
	c := &s.csi
	for i := 0; i < c.np; i++ {
		v := c.arg(i)
		switch {
		case c.p[i].n > 1 || v < 0 || v >= vtMaxParam: // colon, empty or clamped
			return false
		case v == 21 || v == 58 || v == 59 || (v >= 30 && v <= 37):
			return false
		case v == 38 || v == 48:
			n := extColorLen(c, i)
			if n == 0 || (v == 38 && plainFG(c, i)) {
				return false
			}
			i += n
		}
	}
	return true
}

// extColorLen is how many parameters follow a 38 or 48 at i when they are a whole
// "5;n" or "2;r;g;b" that needs no rewrite, else 0.
func extColorLen(c *vtCSI, i int) int {
	in := func(j int) bool { v := c.arg(j); return j < c.np && c.p[j].n == 1 && v >= 0 && v <= 255 }
	switch c.arg(i + 1) {
	case 5:
		if in(i + 2) {
			return 2
		}
	case 2:
		if in(i+2) && in(i+3) && in(i+4) && (c.arg(i+2) != 0 || c.arg(i+3) != 0) {
			return 4
		}
	}
	return 0
}

// plainFG reports whether the whole extended colour at i is one that putColor
// rewrites: a palette 0–7, or a truecolour taken for the 256+n encoding.
func plainFG(c *vtCSI, i int) bool {
	if c.arg(i+1) == 5 {
		return c.arg(i+2) < 8
	}
	return c.arg(i+2) == 0 && c.arg(i+3) <= 1 && c.arg(i+4) < 8
}

// sgr rewrites the current "CSI … m".
func (s *Screen) sgr() {
	c := &s.csi
	if c.np == 0 {
		s.out = append(s.out, "\x1b[m"...)
		return
	}
	w := sgrWriter{out: s.out, open: len(s.out)}
	w.out = append(w.out, vtESC, '[')
	for i := 0; i < c.np; i++ {
		i += w.param(c, i)
	}
	s.out = w.close()
}

// sgrWriter appends parameters to SGR sequences, starting a new one when the
// current one grows long.
type sgrWriter struct {
	out  []byte
	open int // where the current "ESC [" starts
	n    int // parameters in the current sequence
}

func (w *sgrWriter) put(vals ...int32) {
	if len(w.out)-w.open > vtMaxCSILen {
		w.out = append(w.out, 'm')
		w.open, w.n = len(w.out), 0
		w.out = append(w.out, vtESC, '[')
	}
	for _, v := range vals {
		if w.n > 0 {
			w.out = append(w.out, ';')
		}
		w.out = appendInt32(w.out, v)
		w.n++
	}
}

// close ends the current sequence, or takes its "ESC [" back if it is empty.
func (w *sgrWriter) close() []byte {
	if w.n == 0 {
		return w.out[:w.open]
	}
	return append(w.out, 'm')
}

// param writes parameter i and returns how many following parameters it used.
func (w *sgrWriter) param(c *vtCSI, i int) int {
	p := &c.p[i]
	v := max(p.v[0], 0)
	switch {
	case v == 38 || v == 48 || v == 58:
		return w.color(c, i)
	case v == 4 && p.n > 1 && p.v[1] == 0:
		w.put(24)
	case v == 21:
		w.put(4)
	case v >= 30 && v <= 37:
		w.put(38, 2, 0, 1, v-30)
	default:
		w.put(v)
	}
	return 0
}

// color writes an extended colour (38 foreground, 48 background, 58 underline:
// dropped) in either form and returns how many following parameters it used.
// A malformed one ends the SGR, as its remaining parameters cannot be told
// apart from its arguments.
func (w *sgrWriter) color(c *vtCSI, i int) int {
	args, used, ok := readExtColor(c, i)
	if !ok {
		return c.np
	}
	if base := c.p[i].v[0]; base != 58 {
		w.putColor(base, args)
	}
	return used
}

// readExtColor reads the extended colour whose code (38, 48 or 58) is parameter i, in
// either form: its kind and values ({5, n} or {2, r, g, b}), how many following
// parameters it used, and false when it is malformed.
func readExtColor(c *vtCSI, i int) (args [4]int32, used int, ok bool) {
	switch p := &c.p[i]; {
	case p.n > 1: // colon form: 38:5:n, 38:2:r:g:b, 38:2:cs:r:g:b
		return colonColor(p), 0, true
	case c.arg(i+1) == 5 && i+2 < c.np:
		return [4]int32{5, c.p[i+2].v[0]}, 2, true
	case c.arg(i+1) == 2 && i+4 < c.np:
		return [4]int32{2, c.p[i+2].v[0], c.p[i+3].v[0], c.p[i+4].v[0]}, 4, true
	}
	return args, 0, false
}

func colonColor(p *vtParam) [4]int32 {
	switch {
	case p.v[1] == 5 && p.n >= 3:
		return [4]int32{5, p.v[2]}
	case p.v[1] == 2 && p.n >= 6:
		return [4]int32{2, p.v[3], p.v[4], p.v[5]}
	case p.v[1] == 2 && p.n == 5:
		return [4]int32{2, p.v[2], p.v[3], p.v[4]}
	}
	return [4]int32{} // unknown kind: nothing written
}

// putColor writes "base;5;n" or "base;2;r;g;b" when every value is in range.
func (w *sgrWriter) putColor(base int32, args [4]int32) {
	for i := 1; i < len(args); i++ {
		if args[i] > 255 {
			return
		}
		args[i] = max(args[i], 0) // empty sub-parameters are 0
	}
	switch args[0] {
	case 5:
		if base == 38 && args[1] < 8 {
			w.put(base, 2, 0, 1, args[1])
			return
		}
		w.put(base, 5, args[1])
	case 2:
		r, g, b := args[1], args[2], args[3]
		switch {
		case base == 38 && r == 0 && g <= 1 && b < 8:
			g = 2
		case r == 0 && g == 0:
			g = 1
		}
		w.put(base, 2, r, g, b)
	}
}

func appendInt32(b []byte, v int32) []byte {
	if v >= 0 && v < 10 {
		return append(b, byte('0'+v))
	}
	return strconv.AppendInt(b, int64(v), 10)
}
