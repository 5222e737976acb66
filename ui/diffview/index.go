package diffview

import (
	"bytes"
	"sort"
	"strconv"
)

// kind is what a diff line is, as the view colours it.
type kind uint8

const (
	kindPlain   kind = iota // outside any file's diff (a stat, text before the first header)
	kindFile                // "diff --git a/x b/x": a file's first line
	kindMeta                // the file's header lines: index, modes, renames, "Binary files … differ"
	kindPath                // "--- a/x", "+++ b/x"
	kindHunk                // "@@ -1,3 +1,4 @@"
	kindAdd                 // "+…" in a hunk
	kindDel                 // "-…" in a hunk
	kindContext             // " …" in a hunk
	kindNote                // "\ No newline at end of file"
)

// Doc is a diff's text indexed once, off the UI goroutine (Index), so that a frame
// reads only the lines it draws: where each line starts, what it is, where each
// file's and each hunk's header is, and each file's name.
type Doc struct {
	text  []byte   // the diff, colour escapes removed
	lower []byte   // text with ASCII letters lower-cased (the same offsets), for searches
	start []int    // start[i] is line i's first byte; start[Len] is one past the last line's newline
	kinds []kind   // per line
	files []int    // the lines of file headers ("diff --git"), in order
	names []string // the files' names (the new name; the old one for a deleted file)
	hunks []int    // the lines of hunk headers ("@@"), in order
}

// Len is the number of lines.
func (d *Doc) Len() int {
	if d == nil {
		return 0
	}
	return len(d.kinds)
}

// Files is the number of files the diff touches.
func (d *Doc) Files() int {
	if d == nil {
		return 0
	}
	return len(d.files)
}

// line is line i's bytes without its newline.
func (d *Doc) line(i int) []byte { return d.text[d.start[i] : d.start[i+1]-1] }

// lineOf is the line holding byte offset off.
func (d *Doc) lineOf(off int) int {
	return sort.Search(len(d.kinds), func(i int) bool { return d.start[i+1] > off })
}

// fileAt is the index of the file whose diff holds line i (-1 before the first).
func (d *Doc) fileAt(i int) int { return sort.SearchInts(d.files, i+1) - 1 }

// Index indexes a diff: git's output, plain or coloured (its escapes are removed: the
// view colours the text itself). It reads every byte once and keeps text.
func Index(text []byte) *Doc {
	if bytes.IndexByte(text, 0x1b) >= 0 {
		text = stripEscapes(text)
	}
	n := bytes.Count(text, []byte{'\n'})
	if len(text) > 0 && text[len(text)-1] != '\n' {
		n++
	}
	d := &Doc{text: text, start: make([]int, 0, n+1), kinds: make([]kind, 0, n)}
	var p parser
	for off := 0; off < len(text); {
		end := bytes.IndexByte(text[off:], '\n')
		if end < 0 {
			end = len(text) - off
		}
		d.add(&p, off, text[off:off+end])
		off += end + 1
	}
	end := len(text) + 1 // where a newline after the last line would end it
	if len(text) > 0 && text[len(text)-1] == '\n' {
		end = len(text)
	}
	d.start = append(d.start, end)
	d.lower = lowerASCII(text)
	return d
}

// add indexes the line at off.
func (d *Doc) add(p *parser, off int, l []byte) {
	i := len(d.kinds)
	k := p.next(l)
	switch k {
	case kindFile:
		d.files = append(d.files, i)
		d.names = append(d.names, nameOfHeader(l))
	case kindHunk:
		d.hunks = append(d.hunks, i)
	case kindPath:
		if f := len(d.names) - 1; f >= 0 {
			if name, ok := nameOfPath(l); ok {
				d.names[f] = name
			}
		}
	}
	d.start = append(d.start, off)
	d.kinds = append(d.kinds, k)
}

// parser follows where a line is: in a file's header, or in a hunk with so many old
// and new lines to go (counted from the hunk header, so a removed line that reads
// "--- x" is a removal, not a header).
type parser struct {
	inFile   bool
	old, new int // lines of the current hunk still to come
}

func (p *parser) next(l []byte) kind {
	if p.old > 0 || p.new > 0 {
		switch {
		case len(l) == 0 || l[0] == ' ':
			p.old, p.new = p.old-1, p.new-1
			return kindContext
		case l[0] == '-':
			p.old--
			return kindDel
		case l[0] == '+':
			p.new--
			return kindAdd
		case l[0] == '\\':
			return kindNote
		}
		p.old, p.new = 0, 0 // not a hunk line after all: a header follows
	}
	switch {
	case bytes.HasPrefix(l, []byte("diff ")):
		p.inFile = true
		return kindFile
	case bytes.HasPrefix(l, []byte("@@")):
		p.old, p.new = hunkCounts(l)
		return kindHunk
	case len(l) > 0 && l[0] == '\\':
		return kindNote
	case !p.inFile:
		return kindPlain
	case bytes.HasPrefix(l, []byte("--- ")) || bytes.HasPrefix(l, []byte("+++ ")):
		return kindPath
	}
	return kindMeta
}

// hunkCounts reads "@@ -a,b +c,d @@": b old and d new lines follow (1 when omitted).
func hunkCounts(l []byte) (old, new int) {
	f := bytes.Fields(l)
	if len(f) < 3 {
		return 0, 0
	}
	return rangeCount(f[1]), rangeCount(f[2])
}

func rangeCount(r []byte) int {
	_, count, ok := bytes.Cut(r, []byte{','})
	if !ok {
		return 1
	}
	n, err := strconv.Atoi(string(count))
	if err != nil {
		return 0
	}
	return n
}

// nameOfHeader is the new name in "diff --git a/x b/x" (the part after " b/"), or the
// line itself when it has none.
func nameOfHeader(l []byte) string {
	if i := bytes.LastIndex(l, []byte(" b/")); i >= 0 {
		return string(l[i+3:])
	}
	return string(bytes.TrimPrefix(l, []byte("diff ")))
}

// nameOfPath is the name in "+++ b/x" or, for a deleted file, "--- a/x"
// (never /dev/null).
func nameOfPath(l []byte) (string, bool) {
	name := l[4:]
	if t := bytes.IndexByte(name, '\t'); t >= 0 { // diff -u's timestamps
		name = name[:t]
	}
	if bytes.Equal(name, []byte("/dev/null")) || bytes.HasPrefix(l, []byte("--- ")) {
		return "", false // the +++ line, after it, names the file
	}
	if len(name) > 2 && name[1] == '/' && (name[0] == 'b' || name[0] == 'a') {
		name = name[2:]
	}
	return string(name), true
}

// stripEscapes drops escape sequences (git's --color SGR, and any other CSI or
// two-byte escape) from text.
func stripEscapes(text []byte) []byte {
	out := make([]byte, 0, len(text))
	for i := 0; i < len(text); i++ {
		if text[i] != 0x1b {
			out = append(out, text[i])
			continue
		}
		if i+1 < len(text) && text[i+1] == '[' {
			i += 2
			for i < len(text) && (text[i] < 0x40 || text[i] > 0x7e) {
				i++
			}
			continue
		}
		i++ // ESC and the byte after it
	}
	return out
}

// lowerASCII is text with A–Z lower-cased: the same length, so its offsets are text's.
func lowerASCII(text []byte) []byte {
	out := make([]byte, len(text))
	for i, c := range text {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
