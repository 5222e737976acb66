package screen

// The pen's extras (screen_cells.go's vtExtra), followed through each SGR beside
// vt10x's own pen: what vt10x has no bit or colour for.

// penSGR follows the extras in the current "CSI … m", walking it as vt10x
// and sgrWriter do so that a colour's arguments are not read as attributes.
func (s *Screen) penSGR() {
	c := &s.csi
	if c.np == 0 {
		s.pen = vtExtra{}
		return
	}
	if s.pen == (vtExtra{}) && c.np == 1 && c.p[0].n == 1 && !extraParam[min(max(c.p[0].v[0], 0), 99)] {
		return // the common "CSI 0 m", "CSI 1 m", "CSI 31 m": nothing of the extras
	}
	for i := 0; i < c.np; i++ {
		p := &c.p[i]
		v := max(p.v[0], 0)
		switch {
		case v == 38 || v == 48 || v == 58:
			used := s.penColor(c, i)
			if used < 0 {
				return
			}
			i += used
		case v == 4 && p.n > 1:
			s.pen.ul = underlineStyle(p.v[1])
		default:
			s.penAttr(v)
		}
	}
}

// extraParam marks the plain SGR parameters below 100 that set an extra
// (penAttr); 38, 48 and 58 are there for the colour arguments they take.
var extraParam = func() (t [100]bool) {
	for _, v := range []int{2, 8, 9, 21, 38, 48, 53, 58} {
		t[v] = true
	}
	return t
}()

// underlineStyle maps "4:n" to vtExtra.ul: single (1) and none (0, or an
// unknown style) are vt10x's underline bit alone.
func underlineStyle(n int32) uint8 {
	if n >= 2 && n <= 5 {
		return uint8(n)
	}
	return 0
}

// penAttr applies one plain SGR parameter to the extras.
func (s *Screen) penAttr(v int32) {
	e := &s.pen
	switch v {
	case 0:
		*e = vtExtra{}
	case 2:
		e.attr |= exDim
	case 8:
		e.attr |= exHidden
	case 9:
		e.attr |= exStrike
	case 22:
		e.attr &^= exDim
	case 28:
		e.attr &^= exHidden
	case 29:
		e.attr &^= exStrike
	case 53:
		e.attr |= exOverline
	case 55:
		e.attr &^= exOverline
	case 4, 24:
		e.ul = 0
	case 21: // double underline (ECMA-48, xterm, tmux)
		e.ul = 2
	case 59:
		e.ulc = 0
	case 39:
		e.setTC(e.tc() &^ (tcFG | tcFGGreen))
	case 49:
		e.setTC(e.tc() &^ (tcBG | tcBGGreen))
	default:
		switch {
		case v >= 30 && v <= 37, v >= 90 && v <= 97:
			e.setTC(e.tc() &^ (tcFG | tcFGGreen))
		case v >= 40 && v <= 47, v >= 100 && v <= 107:
			e.setTC(e.tc() &^ (tcBG | tcBGGreen))
		}
	}
}

// penColor reads the extended colour at i, keeps it when it is an underline
// colour (58), and returns how many following parameters it used, or -1 when it
// is malformed and ends the SGR (as in sgrWriter.color).
func (s *Screen) penColor(c *vtCSI, i int) int {
	args, used, ok := readExtColor(c, i)
	if !ok {
		return -1
	}
	switch c.p[i].v[0] {
	case 58:
		if ulc, ok := underlineColor(args); ok {
			s.pen.ulc = ulc
		}
	case 38:
		s.pen.setTC(trueGreen(s.pen.tc(), tcFG, args))
	case 48:
		s.pen.setTC(trueGreen(s.pen.tc(), tcBG, args))
	}
	return used
}

// trueGreen follows in tc (bit tcFG or tcBG, and the green bit after it) whether
// the colour args that putColor writes are stored with another green than given,
// and which; a colour putColor drops changes nothing.
func trueGreen(tc, bit uint8, args [4]int32) uint8 {
	for _, a := range args[1:] {
		if a > 255 {
			return tc
		}
	}
	if args[0] != 2 && args[0] != 5 {
		return tc
	}
	tc &^= bit | bit<<1
	r, g, b := max(args[1], 0), max(args[2], 0), max(args[3], 0)
	switch {
	case args[0] != 2:
	case r == 0 && g == 0, bit == tcFG && r == 0 && g == 1 && b < 8:
		tc |= bit | uint8(g)*bit<<1
	}
	return tc
}

func underlineColor(args [4]int32) (uint32, bool) {
	for i := 1; i < len(args); i++ {
		if args[i] > 255 {
			return 0, false
		}
		args[i] = max(args[i], 0)
	}
	switch args[0] {
	case 5:
		return ulcPalette | uint32(args[1]), true
	case 2:
		return ulcRGB | uint32(args[1])<<16 | uint32(args[2])<<8 | uint32(args[3]), true
	}
	return 0, false
}

// ulcSGR appends ";58:…" for an underline colour, in the colon form, which
// readers that do not know 58 skip whole.
func ulcSGR(b []byte, ulc uint32) []byte {
	switch {
	case ulc&ulcPalette != 0:
		b = append(b, ";58:5:"...)
		return appendUint(b, ulc&0xff)
	case ulc&ulcRGB != 0:
		b = append(b, ";58:2::"...)
		b = appendUint(b, ulc>>16&0xff)
		b = appendUint(append(b, ':'), ulc>>8&0xff)
		return appendUint(append(b, ':'), ulc&0xff)
	}
	return b
}

func appendUint(b []byte, v uint32) []byte { return appendInt32(b, int32(v)) }
