package ui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"corral/reaper"
)

// The details pane's process tree: a header and one line per process.

// treeLines is the process tree: a header and one line per process, the command
// indented by depth.
func (d Details) treeLines() []string {
	st := d.c.Styles
	switch {
	case d.treeErr != "":
		return []string{" " + st.Danger.Render("tree: "+clean(d.treeErr))}
	case len(d.tree) == 0 && d.info.Ended():
		return []string{st.Muted.Render(" tree: ended, no processes")}
	case len(d.tree) == 0:
		return []string{st.Muted.Render(" tree: …")}
	}
	head := st.Muted.Render(fmt.Sprintf(" %7s %7s %7s S %7s %6s %-*s %s", "PID", "PGID", "SID", "CPU", "RSS", markW, "MARK", "COMM"))
	out := []string{head}
	for _, p := range d.tree {
		out = append(out, d.procLine(p))
	}
	return out
}

func (d Details) procLine(p reaper.TreeProc) string {
	st := d.c.Styles
	mark := pad(string(p.Mark), markW)
	switch p.Mark {
	case reaper.MarkEscaped, reaper.MarkShared:
		mark = st.Warn.Render(mark)
	case reaper.MarkAdopted:
		mark = st.Attention.Render(mark)
	case reaper.MarkContained: // left its session; the run's cgroup holds it
		mark = st.Muted.Render(mark)
	}
	state := string(rune(p.State))
	if p.State == 0 {
		state = "?"
	}
	name := p.Comm
	if len(p.Argv) > 0 {
		name = strings.Join(p.Argv, " ") // an escapee: what escaped, by its command line (issue 14.1)
	}
	return fmt.Sprintf(" %7d %7d %7d %s %7s %6s %s %s%s", p.PID, p.PGID, p.SID, state,
		fmtCPU(p.CPU), fmtBytes(p.RSS), mark, strings.Repeat("  ", min(p.Depth, 8)), clean(name))
}

// markW fits every mark ("contained").
const markW = 9

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
