package runlist

import (
	"slices"

	"corral/runs"
	"corral/runs/api"
)

// An attached UI over many runs opens on the first rows of its list: the rest of the
// runs come after its first frame, all at once (AddListed). Meanwhile the titles count
// them too (SetUnlisted), so the first frame's title is the one drawn once they came.

// SetUnlisted counts runs not listed yet in the titles (the zero summary: none).
func (l *List) SetUnlisted(s api.RunSummary) {
	if s != l.unlisted {
		l.unlisted = s
		l.ver++
	}
	if s.Runs == 0 {
		l.widest = nil
	}
}

// SetWidest names a few runs not listed yet whose cells are the widest (api.Widest):
// while runs are unlisted the columns are sized with them too, so the first frame's
// columns are the whole list's and the rest arriving moves none of them.
func (l *List) SetWidest(infos []runs.Info) {
	l.widest = infos
	l.ver++
}

// Unlisted counts the runs not listed yet (SetUnlisted), less those listed since.
func (l List) Unlisted() api.RunSummary { return l.unlisted }

// AddListed lists runs not listed yet, after the others in the order given, as
// Upsert would each, with one change of what is shown; it returns those it added (a
// run listed already, by an event, is newer than the copy here and stays). Each run
// given is taken out of the unlisted counts, as the copy given was counted: one an
// event listed already is counted among the listed runs now.
func (l *List) AddListed(infos []runs.Info) []runs.Info {
	have := make(map[string]bool, len(l.runs)+len(infos))
	for _, i := range l.runs {
		have[i.ID] = true
	}
	added := make([]runs.Info, 0, len(infos))
	l.runs = slices.Grow(l.runs, len(infos)) // a thousand runs of a kilobyte or more: grown once
	for _, i := range infos {
		if l.unlisted.Runs > 0 { // the listing gives each run once
			l.unlisted.Add(i, -1)
		}
		if have[i.ID] {
			continue
		}
		have[i.ID] = true
		added = append(added, i)
		if len(l.slot) > 0 && l.takeSlot(i) {
			continue
		}
		l.runs = append(l.runs, i)
		if l.sel == "" {
			l.sel = i.ID
		}
		l.replacePending(i.ID)
	}
	l.follow()
	l.ver++
	return added
}
