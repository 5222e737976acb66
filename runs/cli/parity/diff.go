package parity

import (
	"fmt"
	"strings"
)

// op is one step of an edit script: keep a line of both, delete one of a, insert
// one of b.
type op struct {
	kind byte // ' ', '-', '+'
	a, b int  // line indexes in a and b (the one that does not apply is -1)
}

// maxEdits bounds the Myers search: past this many differing lines the middle of the
// two outputs is reported as one replacement instead of a minimal script, which keeps
// the trace's memory at O(maxEdits²) for outputs that share nothing.
const maxEdits = 2000

// editScript is the shortest edit script from a to b (Myers, "An O(ND) Difference
// Algorithm", 1986), on the lines between their common prefix and suffix.
func editScript(a, b []string) []op {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []op
	for i := 0; i < pre; i++ {
		ops = append(ops, op{' ', i, i})
	}
	ops = append(ops, middle(a[pre:len(a)-suf], b[pre:len(b)-suf], pre, pre)...)
	for i := suf; i > 0; i-- {
		ops = append(ops, op{' ', len(a) - i, len(b) - i})
	}
	return ops
}

// middle is the edit script of a and b, whose first lines are at offsets ao and bo.
func middle(a, b []string, ao, bo int) []op {
	n, m := len(a), len(b)
	maxD := min(n+m, maxEdits)
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	for d := 0; d <= maxD; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, a, b, ao, bo)
			}
		}
	}
	return replaceAll(n, m, ao, bo)
}

// backtrack walks the saved frontiers from the end back to the start. trace[d] holds
// v[-d-1 … d+1] as it was before step d.
func backtrack(trace [][]int, a, b []string, ao, bo int) []op {
	x, y := len(a), len(b)
	var rev []op
	for d := len(trace) - 1; d > 0; d-- {
		v := trace[d]
		at := func(k int) int { return v[k+d+1] }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x, y = x-1, y-1
			rev = append(rev, op{' ', ao + x, bo + y})
		}
		if x == px {
			y--
			rev = append(rev, op{'+', -1, bo + y})
		} else {
			x--
			rev = append(rev, op{'-', ao + x, -1})
		}
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, op{' ', ao + x, bo + y})
	}
	ops := make([]op, len(rev))
	for i, o := range rev {
		ops[len(rev)-1-i] = o
	}
	return ops
}

func replaceAll(n, m, ao, bo int) []op {
	ops := make([]op, 0, n+m)
	for i := 0; i < n; i++ {
		ops = append(ops, op{'-', ao + i, -1})
	}
	for j := 0; j < m; j++ {
		ops = append(ops, op{'+', -1, bo + j})
	}
	return ops
}

// contextLines is how many unchanged lines a hunk shows around a change, as diff -u does.
const contextLines = 3

// unified renders the edit script of a and b as a unified diff with the given file
// labels, and how many lines it removes or adds; mark decorates an added line of b
// (the pipe run's stderr). It returns "" when a and b are equal.
func unified(a, b []string, labelA, labelB string, mark func(j int) string) (string, int) {
	ops := editScript(a, b)
	var out strings.Builder
	changed := 0
	for _, o := range ops {
		if o.kind != ' ' {
			changed++
		}
	}
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-contextLines, 0)
		end := hunkEnd(ops, i)
		if out.Len() == 0 {
			fmt.Fprintf(&out, "--- %s\n+++ %s\n", labelA, labelB)
		}
		as, bs := linesBefore(ops[:start])
		writeHunk(&out, ops[start:end], as, bs, a, b, mark)
		i = end
	}
	return out.String(), changed
}

// linesBefore counts the lines of a and of b that ops cover (those before a hunk,
// or in it).
func linesBefore(ops []op) (as, bs int) {
	for _, o := range ops {
		if o.a >= 0 {
			as++
		}
		if o.b >= 0 {
			bs++
		}
	}
	return as, bs
}

// hunkEnd is where the hunk holding the change at i ends: after the last change that
// is at most 2×contextLines unchanged lines from the previous one, plus contextLines.
func hunkEnd(ops []op, i int) int {
	last := i
	for j := i; j < len(ops); j++ {
		if ops[j].kind != ' ' {
			last = j
		} else if j-last > 2*contextLines {
			break
		}
	}
	return min(last+1+contextLines, len(ops))
}

// writeHunk writes one hunk; as and bs are how many lines of a and b come before it.
func writeHunk(out *strings.Builder, ops []op, as, bs int, a, b []string, mark func(int) string) {
	an, bn := linesBefore(ops)
	fmt.Fprintf(out, "@@ -%s +%s @@\n", hunkRange(as, an), hunkRange(bs, bn))
	for _, o := range ops {
		switch o.kind {
		case ' ':
			fmt.Fprintf(out, " %s\n", a[o.a])
		case '-':
			fmt.Fprintf(out, "-%s\n", a[o.a])
		case '+':
			fmt.Fprintf(out, "+%s%s\n", b[o.b], mark(o.b))
		}
	}
}

// hunkRange is "start,count" with a 1-based start; an empty side names the line
// before the hunk, as diff -u does.
func hunkRange(start, count int) string {
	switch count {
	case 0:
		return fmt.Sprintf("%d,0", start)
	case 1:
		return fmt.Sprint(start + 1)
	}
	return fmt.Sprintf("%d,%d", start+1, count)
}
