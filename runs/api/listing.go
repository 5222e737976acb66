package api

import (
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
// listed yet: how many, how many live, and the live agents in each state shown.
type RunSummary struct {
	Runs    int `json:"runs"`
	Live    int `json:"live,omitempty"`
	Waiting int `json:"waiting,omitempty"`
	Working int `json:"working,omitempty"`
	Idle    int `json:"idle,omitempty"`
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
