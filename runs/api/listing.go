package api

import (
	"slices"
	"strconv"
	"unicode/utf8"

	"corral/runs"
	"corral/runs/agentstate"
)

// An attached UI draws its first frame from the first rows of its run list: at a
// thousand runs the whole list is over a megabyte of JSON, most of what the client
// did before that frame. So a subscriber that asks (SubscribeArgs.First) gets the
// first runs, the first one's screen and the counts of the others (RunSummary) in the
// reply, and the others after it on the stream (Listing), which its core hands on as
// EventListed events.

// RunSummary is what a run list's title and the window's title count of runs not
// listed yet: how many, how many live, and the live agents in each state shown; and
// the events pane's heading, their escaped processes.
type RunSummary struct {
	Runs    int `json:"runs"`
	Live    int `json:"live,omitempty"`
	Waiting int `json:"waiting,omitempty"`
	Working int `json:"working,omitempty"`
	Idle    int `json:"idle,omitempty"`
	// Escaped is their escaped processes, which the events pane's heading counts.
	Escaped int `json:"escaped,omitempty"`
}

// Summarize counts infos as the run list counts its rows: live is not ended, and an
// agent's state counts while its run is running.
func Summarize(infos []runs.Info) RunSummary {
	var s RunSummary
	for _, i := range infos {
		s.Add(i, 1)
	}
	return s
}

// Add counts run i n times (n −1 takes it out: it is listed now).
func (s *RunSummary) Add(i runs.Info, n int) {
	s.Runs += n
	s.Escaped += n * i.Escapees
	if !i.Ended() {
		s.Live += n
	}
	if i.Agent == "" || i.State != runs.Running {
		return
	}
	switch i.AgentState {
	case agentstate.Waiting:
		s.Waiting += n
	case agentstate.Working:
		s.Working += n
	case agentstate.Idle:
		s.Idle += n
	}
}

// ListingChunk is the most runs one Listing carries: a few messages at a thousand
// runs, each well within MaxMessage whatever the number of runs.
const ListingChunk = 256

// EventListed is an attached UI's core's event for a run its subscription's reply
// left out (Listing), in the list's order; the last of them names no run: every run
// is listed. ui.Bridge gathers them into one message.
const EventListed runs.EventType = "listed"

// Widest picks, among runs not listed yet (rest), those whose cells are likely wider
// than the listed runs' (listed) in a run list's columns: the longest name (in bytes
// and in runes), pid, state, ended status (reason and exit), escape markers and
// worktree diff, each the first run that measures most, where it measures more than
// every listed run, and none twice. A UI sizes its first frame's
// columns with them too (runlist.List.SetWidest), so the rest arriving does not widen
// a column and draw every row again. The measures are the server's, not the UI's
// widths: a run they miss only widens the columns once it is listed, as without them.
func Widest(listed, rest []runs.Info) []runs.Info {
	measures := []func(runs.Info) int{
		func(i runs.Info) int { return len(i.Name) },
		func(i runs.Info) int { return utf8.RuneCountInString(i.Name) },
		func(i runs.Info) int { return digits(i.PID) },
		func(i runs.Info) int {
			n := len(i.State.String())
			if i.State == runs.Running && i.Agent != "" {
				n = max(n, len(i.AgentState.String())+2+len(i.AgentMode))
			}
			for _, d := range i.WaitingFor {
				n += len(d.Name) + 2
			}
			return n
		},
		func(i runs.Info) int {
			if !i.Ended() {
				return 0
			}
			n := len(i.Reason.String()) + 1
			switch {
			case i.ExitCode != nil:
				n += digits(*i.ExitCode)
			case i.Signal != 0:
				n += 3 + digits(i.Signal)
			}
			return n
		},
		func(i runs.Info) int {
			n := 0
			if i.Escapees > 0 { // ⚠N
				n = 1 + digits(i.Escapees)
			}
			if i.Adopted { // A
				n++
			}
			return n
		},
		func(i runs.Info) int {
			if i.Worktree == nil || i.Diff == nil {
				return 0
			}
			return digits(i.Diff.Added) + digits(i.Diff.Removed)
		},
	}
	var out []runs.Info
	for _, m := range measures {
		best, at := 0, -1
		for _, i := range listed {
			best = max(best, m(i))
		}
		for k, i := range rest {
			if v := m(i); v > best {
				best, at = v, k
			}
		}
		if at >= 0 && !slices.ContainsFunc(out, func(i runs.Info) bool { return i.ID == rest[at].ID }) {
			out = append(out, rest[at])
		}
	}
	return out
}

// digits is how many characters n is written in.
func digits(n int) int { return len(strconv.Itoa(n)) }
