package castplay

// Cmd is one command of the player.
type Cmd int

const (
	CmdNone Cmd = iota
	CmdPause
	CmdFaster
	CmdSlower
	CmdBack    // Step back
	CmdForward // Step forward
	CmdStart
	CmdEnd
	CmdQuit
)

// Input is the bytes the UI writes to the player for each command (its replay keys
// work outside focus); they are the keys a terminal sends, so in focus the same keys
// do the same.
var Input = map[Cmd]string{
	CmdPause: " ", CmdFaster: "+", CmdSlower: "-", CmdBack: "\x1b[D", CmdForward: "\x1b[C",
	CmdStart: "\x1b[H", CmdEnd: "\x1b[F", CmdQuit: "q",
}

// sequences are the escape sequences a terminal sends for the keys, in normal and
// application cursor mode, and the VT220 forms of Home and End.
var sequences = map[string]Cmd{
	"[D": CmdBack, "OD": CmdBack, "[C": CmdForward, "OC": CmdForward,
	"[H": CmdStart, "OH": CmdStart, "[1~": CmdStart, "[7~": CmdStart,
	"[F": CmdEnd, "OF": CmdEnd, "[4~": CmdEnd, "[8~": CmdEnd,
}

var single = map[byte]Cmd{
	' ': CmdPause, '+': CmdFaster, '=': CmdFaster, '-': CmdSlower, 'h': CmdBack, 'l': CmdForward,
	'g': CmdStart, 'G': CmdEnd, 'q': CmdQuit,
}

// Parse reads the commands in input. An escape sequence cut at the end of b is
// returned as rest, to be prefixed to the next read; other bytes are ignored.
func Parse(b []byte) (cmds []Cmd, rest []byte) {
	for i := 0; i < len(b); {
		if b[i] != 0x1b {
			if c, ok := single[b[i]]; ok {
				cmds = append(cmds, c)
			}
			i++
			continue
		}
		n := seqLen(b[i+1:])
		if n < 0 {
			return cmds, b[i:]
		}
		if c, ok := sequences[string(b[i+1:i+1+n])]; ok {
			cmds = append(cmds, c)
		}
		i += 1 + n
	}
	return cmds, nil
}

// seqLen is the length of the sequence after an ESC: CSI params and a final byte, SS3
// and one byte, or nothing (a lone ESC); -1 when b ends inside it.
func seqLen(b []byte) int {
	switch {
	case len(b) == 0:
		return -1
	case b[0] == 'O':
		if len(b) < 2 {
			return -1
		}
		return 2
	case b[0] != '[':
		return 0
	}
	for i := 1; i < len(b); i++ {
		if b[i] >= 0x40 && b[i] <= 0x7e {
			return i + 1
		}
	}
	return -1
}
