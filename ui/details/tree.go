package details

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"corral/reaper"
	"corral/ui/common"
)

// The details pane's process tree: a header and one line per process, in columns
// sized from the tree and the pane (treeColumns).

// treeLines is the process tree in w columns: a header and one line per process, the
// command indented by depth; an escapee's command line wraps rather than being cut.
func (d Details) treeLines(w int) []string {
	st := d.c.Styles
	switch {
	case d.treeErr != "":
		return []string{" " + st.Danger.Render("tree: "+common.Clean(d.treeErr))}
	case len(d.tree) == 0 && d.info.Ended():
		return []string{st.Muted.Render(" tree: ended, no processes")}
	case len(d.tree) == 0:
		return []string{st.Muted.Render(" tree: …")}
	}
	c := treeColumns(d.tree, w)
	head := c.fields("PID", "PGID", "SID", "S", "CPU", "RSS", common.Field{Text: "MARK", W: c.mark})
	out := []string{st.Muted.Render(" " + common.PlainFields(head) + " COMM")}
	for _, p := range d.tree {
		out = append(out, d.procLines(p, c, w)...)
	}
	return out
}

// treeCols are the process table's column widths; 0 is a column not shown.
type treeCols struct{ pid, pgid, sid, state, cpu, rss, mark int }

// treeCommW is the least the command keeps beside the columns.
const treeCommW = 16

// treeColumns sizes the columns to their widest cell (the header's at least). PID,
// MARK (whole: at 160 columns it was cut to "esca") and the command are always shown;
// the state, CPU, RSS, the session and the group follow, in that order, while the
// command keeps treeCommW columns (the mark already says whether a process left the
// run's session, which its session and group explain).
func treeColumns(tree []reaper.TreeProc, w int) treeCols {
	c := treeCols{pid: 3, pgid: 4, sid: 3, state: 1, cpu: 3, rss: 3, mark: 4}
	for _, p := range tree {
		c.pid = max(c.pid, len(strconv.Itoa(p.PID)))
		c.pgid = max(c.pgid, len(strconv.Itoa(p.PGID)))
		c.sid = max(c.sid, len(strconv.Itoa(p.SID)))
		c.cpu = max(c.cpu, len(fmtCPU(p.CPU)))
		c.rss = max(c.rss, len(common.FmtBytes(p.RSS)))
		c.mark = max(c.mark, common.WidthOf(string(p.Mark)))
	}
	left := w - 1 - (c.pid + 1) - (c.mark + 1) - treeCommW
	for _, col := range []*int{&c.state, &c.cpu, &c.rss, &c.sid, &c.pgid} {
		if *col+1 > left {
			left = 0 // a column that does not fit drops the ones after it
			*col = 0
			continue
		}
		left -= *col + 1
	}
	return c
}

// fields are one line's cells in the columns shown, the mark given as a field (styled).
func (c treeCols) fields(pid, pgid, sid, state, cpu, rss string, mark common.Field) []common.Field {
	f := []common.Field{{Text: pid, W: -c.pid}}
	for _, x := range []common.Field{{Text: pgid, W: -c.pgid}, {Text: sid, W: -c.sid}, {Text: state, W: c.state},
		{Text: cpu, W: -c.cpu}, {Text: rss, W: -c.rss}} {
		if x.W != 0 {
			f = append(f, x)
		}
	}
	return append(f, mark)
}

// procLines is one process: its cells and its command, indented by depth. An
// escapee is shown by its command line (what escaped), in its row when it
// fits, else whole on the lines under the row, wrapped at spaces.
func (d Details) procLines(p reaper.TreeProc, c treeCols, w int) []string {
	st := d.c.Styles
	mark := common.Field{Text: string(p.Mark), W: c.mark}
	switch p.Mark {
	case reaper.MarkEscaped, reaper.MarkShared:
		mark.Style = st.Warn
	case reaper.MarkAdopted:
		mark.Style = st.Attention
	case reaper.MarkContained: // left its session; the run's cgroup holds it
		mark.Style = st.Muted
	}
	state := string(rune(p.State))
	if p.State == 0 {
		state = "?"
	}
	line := " " + common.StyledFields(c.fields(strconv.Itoa(p.PID), strconv.Itoa(p.PGID), strconv.Itoa(p.SID), state,
		fmtCPU(p.CPU), common.FmtBytes(p.RSS), mark)) +
		" "
	line += strings.Repeat("  ", min(p.Depth, 8, max(w-common.WidthOf(line), 0)/4))
	cmd := common.Clean(strings.Join(p.Argv, " "))
	switch {
	case len(p.Argv) == 0:
		return []string{line + common.Clean(p.Comm)}
	case common.WidthOf(line+cmd) <= w:
		return []string{line + cmd}
	}
	return append([]string{line + common.Clean(p.Comm)}, common.WrapHanging(treeArgvIndent+cmd, w, len(treeArgvIndent))...)
}

// treeArgvIndent sets an escapee's command line, when it does not fit its row, on the
// lines under it.
const treeArgvIndent = "   "

// fmtCPU is CPU time: "0.12s", "12.3s", "5m02s".
func fmtCPU(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return strconv.FormatFloat(d.Seconds(), 'f', 2, 64) + "s"
	case d < time.Minute:
		return strconv.FormatFloat(d.Seconds(), 'f', 1, 64) + "s"
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}
