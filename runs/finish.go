package runs

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"corral/runs/workspace"
)

// DiffResult is a run's worktree's changes against its base: the text as git diff
// prints it (Text), its figures, and the worktree. Offset and Total page a text too
// large for one reply of the API (api.DiffAll reads every page): Text is
// Total bytes from Offset; Sum identifies the whole text, so a reader of several
// pages knows they are of one diff.
type DiffResult struct {
	Text     []byte             `json:"text"`
	Stat     workspace.Stat     `json:"stat"`
	Worktree workspace.Worktree `json:"worktree"`
	Offset   int                `json:"offset,omitempty"`
	Total    int                `json:"total"`
	Sum      string             `json:"sum,omitempty"`
}

// FinishOptions are finish's choices: commit the uncommitted work with message
// Commit ("" commits nothing), merge the branch into Into (default: the branch the
// base came from) when Merge, delete the branch when DeleteBranch (else it is kept),
// and remove a worktree holding work nothing else keeps only when Force.
type FinishOptions struct {
	Commit       string `json:"commit,omitempty"`
	Merge        bool   `json:"merge,omitempty"`
	Into         string `json:"into,omitempty"`
	DeleteBranch bool   `json:"delete_branch,omitempty"`
	Force        bool   `json:"force,omitempty"`
}

// FinishResult is what Finish did: whether it ended the run, and each step (the
// commit, the merge, the removal, the branch kept or deleted).
type FinishResult struct {
	ID       string             `json:"id"`
	Ended    bool               `json:"ended,omitempty"`
	Worktree workspace.Worktree `json:"worktree"`
	Finished workspace.Finished `json:"finished"`
}

// worktreeOf is run id's worktree, or an error saying the run has none or that it was
// removed already.
func (s *Supervisor) worktreeOf(id string) (*run, Info, workspace.Worktree, error) {
	r, err := s.get(id)
	if err != nil {
		return nil, Info{}, workspace.Worktree{}, err
	}
	i := r.snapshot()
	switch {
	case i.Worktree == nil:
		return nil, i, workspace.Worktree{}, fmt.Errorf("run %s has no worktree: %w", id, ErrNoWorktree)
	case i.Finished != nil && i.Finished.Removed:
		return nil, i, *i.Worktree, fmt.Errorf("run %s was %w: its worktree %s was removed (corral info %s says what was done)",
			id, ErrFinished, i.Worktree.Path, id)
	}
	if err := s.removedBy(id, *i.Worktree, workspace.ErrNotWorktree); !errors.Is(err, workspace.ErrNotWorktree) {
		return nil, i, *i.Worktree, err // another run's finish removed the worktree they shared
	}
	return r, i, *i.Worktree, nil
}

// Diff is everything run id's worktree changed against its base commit, as git diff
// prints it with o (workspace.Diff), and its figures.
func (s *Supervisor) Diff(ctx context.Context, id string, o workspace.DiffOptions) (DiffResult, error) {
	_, i, wt, err := s.worktreeOf(id)
	if err != nil {
		return DiffResult{}, err
	}
	env := gitEnvOf(i.Spec)
	ctx = s.gitContext(ctx)
	text, st, err := workspace.DiffWithStat(ctx, wt, env, o)
	if err != nil {
		return DiffResult{}, fmt.Errorf("diff %s: %w", id, s.removedBy(id, wt, err))
	}
	return DiffResult{Text: text, Stat: st, Worktree: wt, Total: len(text)}, nil
}

// removedBy is err, a worktree git no longer lists, said as what it is when the
// finish of another run that shared the worktree (a run restored into it, or the
// run it was restored from) removed it: run id is finished already.
func (s *Supervisor) removedBy(id string, wt workspace.Worktree, err error) error {
	if !errors.Is(err, workspace.ErrNotWorktree) {
		return err
	}
	self, _ := s.Info(id)
	for _, i := range s.Snapshot() {
		if i.ID == id || i.Worktree == nil || i.Worktree.Path != wt.Path || i.Finished == nil || !i.Finished.Removed {
			continue
		}
		if i.Finished.At.Before(self.CreatedAt) {
			continue // removed before this run began: this run's worktree is a new one at that path
		}
		return fmt.Errorf("run %s was %w: its worktree %s was removed by finishing run %s, which shared it (%s; corral info %s)",
			id, ErrFinished, wt.Path, i.ID, i.Finished.Done(), i.ID)
	}
	return err
}

// inUse names the live runs other than id working in the worktree at path: their own
// worktree is it, or their directory is inside it.
func (s *Supervisor) inUse(id, path string) []string {
	var users []string
	for _, i := range s.Snapshot() {
		if i.ID == id || i.Ended() {
			continue
		}
		if i.Worktree != nil && i.Worktree.Path == path || underDir(i.Spec.Dir, path) {
			users = append(users, i.ID)
		}
	}
	return users
}

func underDir(dir, root string) bool {
	if dir == "" || root == "" {
		return false
	}
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Finish ends run id if it is live (its normal cancel, waited for), commits its
// worktree's uncommitted work when o.Commit, merges its branch when o.Merge, removes
// the worktree and deletes the branch when o.DeleteBranch, and records what it did in
// the run's record. Everything that can be checked is checked before the run is
// ended, so a refused finish leaves the run, its worktree, its branch and the main
// checkout as they were; the steps after the end check again (the agent may have
// changed its files meanwhile), and on a refusal there the result says what was done.
func (s *Supervisor) Finish(ctx context.Context, id string, o FinishOptions) (FinishResult, error) {
	r, _, _, err := s.worktreeOf(id)
	if err != nil {
		return FinishResult{ID: id}, err
	}
	if !r.finishing.CompareAndSwap(false, true) {
		return FinishResult{ID: id}, fmt.Errorf("finish %s: %w", id, ErrFinishing)
	}
	defer r.finishing.Store(false)
	_, i, wt, err := s.worktreeOf(id) // as of now: a finish that just ended removed it
	if err != nil {
		return FinishResult{ID: id}, err
	}
	if other, busy := s.finishingAt.LoadOrStore(wt.Path, id); busy {
		return FinishResult{ID: id}, fmt.Errorf("finish %s: %w: run %s, which shares the worktree %s, is being finished; look again when it is done (corral info %s)",
			id, ErrFinishing, other, wt.Path, other)
	}
	defer s.finishingAt.Delete(wt.Path)
	res := FinishResult{ID: id, Worktree: wt}
	env := gitEnvOf(i.Spec)
	ctx = s.gitContext(ctx)
	if err := s.checkFinish(ctx, id, wt, env, o); err != nil {
		return res, err
	}
	// Decided: from here the finish is carried through even if its caller goes away
	// (Ctrl-C on corral finish). git killed half way through a commit, a merge or a
	// removal would leave a lock file, a half-merged main checkout or half a worktree.
	ctx = context.WithoutCancel(ctx)
	if !i.Ended() {
		if err := s.Cancel(id); err != nil {
			return res, err
		}
		if _, err := s.Wait(ctx, id); err != nil {
			return res, fmt.Errorf("finish %s: waiting for the run to end: %w", id, err)
		}
		res.Ended = true
	}
	err = s.finishSteps(ctx, wt, env, o, &res.Finished)
	if err != nil && res.Finished == (workspace.Finished{}) {
		return res, fmt.Errorf("finish %s: %w%s", id, err, res.done())
	}
	res.Finished.At = s.clock.Now()
	f := res.Finished
	r.change(EventWorktree, f.Done(), func(i *Info) { i.Finished = &f })
	if err != nil {
		err = fmt.Errorf("finish %s: %w%s", id, err, res.done())
	}
	if rerr := s.noteFinished(r, f); rerr != nil && err == nil {
		err = fmt.Errorf("finish %s: %s, but its record does not say so: %w", id, f.Done(), rerr)
	}
	return res, err
}

// done is what a finish that failed part way did, for its error: " (done: ended the
// run, committed abc…)"; "" when nothing was.
func (res FinishResult) done() string {
	var steps []string
	if res.Ended {
		steps = append(steps, "ended the run")
	}
	if res.Finished != (workspace.Finished{}) {
		steps = append(steps, res.Finished.Done())
	}
	if len(steps) == 0 {
		return ""
	}
	return " (done: " + strings.Join(steps, ", ") + ")"
}

// ignoredList names ignored paths for a finish's record: "files .env, node_modules/"
// and how many more past a few.
func ignoredList(paths []string) string {
	const most = 5
	s := "file"
	if len(paths) > 1 {
		s = "files"
	}
	if len(paths) <= most {
		return s + " " + strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s %s and %d more", s, strings.Join(paths[:most], ", "), len(paths)-most)
}

// noteFinished writes f into the ended run's record. An ended record is final for
// the run's lifecycle (its lease fences every other write), so this is a write of
// its own, under the registry's lock: nothing else writes an ended run's record.
func (s *Supervisor) noteFinished(r *run, f workspace.Finished) error {
	r.mu.Lock()
	unrecorded := r.unrecorded
	r.mu.Unlock()
	if s.reg == nil || unrecorded {
		return nil
	}
	return s.reg.withLock(func() error {
		rec, err := s.reg.record(r.id)
		if err != nil {
			return err
		}
		rec.Finished = &f
		return s.reg.write(rec)
	})
}

// checkFinish refuses, before anything is done, a finish that would touch a
// worktree another live run works in, a merge that cannot be done, or a removal that
// would lose work.
func (s *Supervisor) checkFinish(ctx context.Context, id string, wt workspace.Worktree, env []string, o FinishOptions) error {
	if users := s.inUse(id, wt.Path); len(users) > 0 {
		return fmt.Errorf("finish %s: worktree %s is in use by live run %s: end it first: %w",
			id, wt.Path, strings.Join(users, ", "), ErrWorktreeInUse)
	}
	if o.Commit != "" && strings.TrimSpace(o.Commit) == "" {
		return fmt.Errorf("finish %s: --commit with a blank message: say what the commit is", id)
	}
	if o.Commit != "" || o.Merge {
		if err := workspace.CheckOnBranch(ctx, wt, env); err != nil {
			return fmt.Errorf("finish %s: %w", id, s.removedBy(id, wt, err))
		}
	}
	if o.Commit != "" {
		if err := workspace.CheckCommit(ctx, wt, env); err != nil {
			return fmt.Errorf("finish %s: %w", id, s.removedBy(id, wt, err))
		}
	}
	if o.Merge {
		if _, _, err := workspace.CheckMerge(ctx, wt, env, o.Into, o.Commit != ""); err != nil {
			return fmt.Errorf("finish %s: %w", id, err)
		}
	}
	lost, err := workspace.Check(ctx, wt, env, workspace.RemoveOptions{DeleteBranch: o.DeleteBranch})
	if err != nil {
		return fmt.Errorf("finish %s: %w", id, s.removedBy(id, wt, err))
	}
	if o.Commit != "" { // committed, the work is on the branch: lost only with it
		if o.DeleteBranch && !o.Merge && len(lost.Changed)+len(lost.Untracked) > 0 {
			lost.Commits = append(lost.Commits, "the commit --commit would make")
		}
		lost.Changed, lost.Untracked = nil, nil
	}
	if o.Merge { // merged, the branch's commits are on the branch merged into
		lost.Commits = nil
	}
	if !lost.Empty() && !o.Force {
		return fmt.Errorf("finish %s: %w", id, &workspace.LostError{Path: wt.Path, Lost: lost})
	}
	return nil
}

// finishSteps commits, merges, removes the worktree and deletes the branch, as o
// says, noting in f each step done.
func (s *Supervisor) finishSteps(ctx context.Context, wt workspace.Worktree, env []string, o FinishOptions, f *workspace.Finished) error {
	if o.Commit != "" {
		c, err := workspace.Commit(ctx, wt, env, o.Commit)
		if err != nil {
			return err
		}
		f.Commit = c
	}
	if o.Merge {
		into, head, err := workspace.Merge(ctx, wt, env, o.Into)
		if err != nil {
			return err
		}
		f.Into, f.Merge = into, head
	}
	ro := workspace.RemoveOptions{Force: o.Force, DeleteBranch: o.DeleteBranch}
	lost, err := workspace.Check(ctx, wt, env, ro)
	if err != nil {
		return err
	}
	if err := workspace.Remove(ctx, wt, env, ro); err != nil {
		return err
	}
	f.Removed, f.BranchDeleted = true, o.DeleteBranch
	if !lost.Empty() {
		f.Discarded = lost.String()
	}
	if len(lost.Ignored) > 0 {
		f.Ignored = ignoredList(lost.Ignored)
	}
	if !o.DeleteBranch {
		f.Branch = wt.Branch
	}
	return nil
}
