package api

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"time"

	"corral/runs"
	"corral/runs/workspace"
)

// A run's worktree: its diff against its base, and finishing it.
var (
	// Diff is git's work: a large repository's may take longer than a control call.
	Diff = declare("diff", LaneMain, diff).within(fixed[DiffArgs](DiffBudget))
	// Finish waits for a live run to end first, within its grace.
	Finish = declare("finish", LaneMain, finish).within(fixed[FinishArgs](EndingBudget))
)

// DiffBudget is how long a client waits for a diff.
const DiffBudget = 2 * time.Minute

// DiffArgs asks for a run's diff: --stat, --color, and the byte of the text a page
// starts at (DiffAll reads them all).
type DiffArgs struct {
	ID     string `json:"id"`
	Stat   bool   `json:"stat,omitempty"`
	Color  bool   `json:"color,omitempty"`
	Offset int    `json:"offset,omitempty"`
}

// FinishArgs asks to finish a run's worktree with the options of runs.FinishOptions.
type FinishArgs struct {
	ID string `json:"id"`
	runs.FinishOptions
}

func (a DiffArgs) ref() string   { return a.ID }
func (a FinishArgs) ref() string { return a.ID }

// diffPage bounds the text of one diff reply: the text crosses the socket as base64
// (4 bytes for 3), so a page of half of MaxMessage is two thirds of it. A 50,000-line
// diff of source code is a few MB: one page, most of the time.
const diffPage = MaxMessage / 2

func diff(ctx context.Context, c Core, a DiffArgs) (runs.DiffResult, error) {
	id, err := Resolve(c, a.ID)
	if err != nil {
		return runs.DiffResult{}, err
	}
	if a.Offset < 0 {
		return runs.DiffResult{}, errorf(CodeBadRequest, "diff from byte %d: give an offset from 0", a.Offset)
	}
	d, err := c.Diff(ctx, id, workspace.DiffOptions{Stat: a.Stat, Color: a.Color})
	if err != nil {
		return d, err
	}
	return diffPageOf(d, a.Offset, diffPage), nil
}

// diffPageOf is the part of d's text from byte from, at most size bytes, with the
// total and the sum of the whole text.
func diffPageOf(d runs.DiffResult, from, size int) runs.DiffResult {
	sum := sha256.Sum256(d.Text)
	d.Sum, d.Total = hex.EncodeToString(sum[:16]), len(d.Text)
	from = min(from, len(d.Text))
	d.Text, d.Offset = d.Text[from:min(from+size, len(d.Text))], from
	return d
}

// DiffAll is the Diff operation's whole text, read page by page when it is too large
// for one reply. A page of another text than the first's (the run's files changed
// between two pages) starts the reading over, a few times at most.
func DiffAll(ctx context.Context, c Caller, a DiffArgs) (runs.DiffResult, error) {
	const tries = 3
	for range tries {
		a.Offset = 0
		d, err := Diff.Call(ctx, c, a)
		if err != nil {
			return d, err
		}
		text := d.Text
		for len(text) < d.Total {
			a.Offset = len(text)
			next, err := Diff.Call(ctx, c, a)
			if err != nil {
				return runs.DiffResult{}, err
			}
			if next.Sum != d.Sum || len(next.Text) == 0 {
				break
			}
			text = append(text, next.Text...)
		}
		if len(text) == d.Total {
			d.Text, d.Offset = text, 0
			return d, nil
		}
	}
	return runs.DiffResult{}, errorf(CodeFailed, "diff %s: the worktree's files kept changing while the diff was read: try again", a.ID)
}

func finish(ctx context.Context, c Core, a FinishArgs) (runs.FinishResult, error) {
	id, err := Resolve(c, a.ID)
	if err != nil {
		return runs.FinishResult{}, err
	}
	return c.Finish(ctx, id, a.FinishOptions)
}
