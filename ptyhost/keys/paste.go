package keys

// Bracketed paste markers (xterm mode 2004).
const (
	pasteStart = "\x1b[200~"
	pasteEnd   = "\x1b[201~"
)

// EncodePaste returns the bytes that paste text into the hosted app.
//
// With bracketed (the app enabled mode 2004) the text is wrapped in
// ESC[200~ … ESC[201~, and every paste marker inside it is removed, so pasted
// text can never end paste mode early and have the rest run as typed keys
// (OpenClaw sent markers unchecked, which allowed exactly that injection).
// Without bracketing the markers would reach a shell as literal "[200~"
// garbage, so the text is sent as is, except that "\n" and "\r\n" become "\r",
// which is what a terminal sends for Enter.
//
// Empty text pastes nothing, not an empty pair of markers.
func EncodePaste(text string, bracketed bool) []byte {
	if text == "" {
		return nil
	}
	if !bracketed {
		return newlinesToEnter(text)
	}
	b := make([]byte, 0, len(pasteStart)+len(text)+len(pasteEnd))
	b = append(b, pasteStart...)
	b = appendNeutralised(b, text)
	return append(b, pasteEnd...)
}

// appendNeutralised appends text to dst without any paste marker. It works
// as a stack, dropping a marker as soon as one ends the output, so removing
// one cannot join the bytes around it into a new one ("\e[20\e[201~1~").
func appendNeutralised(dst []byte, text string) []byte {
	start := len(dst)
	for i := 0; i < len(text); i++ {
		dst = append(dst, text[i])
		dst = dst[:len(dst)-markerSuffixLen(dst[start:])]
	}
	return dst
}

// markerSuffixLen is the length of the paste marker b ends with, or 0. Besides
// ESC [ it recognises the 8-bit CSI introducer, raw (0x9b) and UTF-8 encoded
// (U+009B), because some apps' input parsers accept C1 controls.
func markerSuffixLen(b []byte) int {
	n := len(b) - len("200~")
	if n < 1 {
		return 0
	}
	if s := string(b[n:]); s != "200~" && s != "201~" {
		return 0
	}
	switch {
	case n >= 2 && b[n-2] == escByte && b[n-1] == '[':
		return 6
	case n >= 2 && b[n-2] == 0xc2 && b[n-1] == 0x9b:
		return 6
	case b[n-1] == 0x9b:
		return 5
	}
	return 0
}

// newlinesToEnter turns "\r\n" and "\n" into "\r".
func newlinesToEnter(text string) []byte {
	b := make([]byte, 0, len(text))
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '\n' {
			if i > 0 && text[i-1] == '\r' {
				continue
			}
			c = '\r'
		}
		b = append(b, c)
	}
	return b
}
