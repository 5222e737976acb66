package workspace

import (
	"strings"
	"time"
)

// Finished is what finishing a run's worktree did, kept in the run's record so that
// ls and info tell it afterwards.
type Finished struct {
	At time.Time `json:"at"`
	// Commit is the commit made of the worktree's uncommitted work ("" when none).
	Commit string `json:"commit,omitempty"`
	// Into is the branch the worktree's branch was merged into, and Merge the main
	// checkout's commit after it ("" when merged already); both "" when not merged.
	Into  string `json:"into,omitempty"`
	Merge string `json:"merge,omitempty"`
	// Removed: the worktree's directory is gone. Discarded is what --force threw
	// away with it ("" when nothing was).
	Removed   bool   `json:"removed"`
	Discarded string `json:"discarded,omitempty"`
	// Ignored names the ignored files and directories (.env, node_modules/) that
	// went with the worktree ("" when none): never counted as work, always said.
	Ignored string `json:"ignored,omitempty"`
	// BranchDeleted: the branch went too; else it is kept, and Branch names it.
	BranchDeleted bool   `json:"branch_deleted,omitempty"`
	Branch        string `json:"branch,omitempty"`
}

// Done says the steps done, for people: "committed abc1234, merged into main,
// removed the worktree, kept branch corral/x".
func (f Finished) Done() string {
	var steps []string
	if f.Commit != "" {
		steps = append(steps, "committed "+short(f.Commit))
	}
	if f.Into != "" {
		steps = append(steps, "merged into "+f.Into)
	}
	if f.Removed {
		steps = append(steps, "removed the worktree")
	}
	if f.Discarded != "" {
		steps = append(steps, "discarded "+f.Discarded)
	}
	if f.Ignored != "" {
		steps = append(steps, "with its ignored "+f.Ignored)
	}
	switch {
	case f.BranchDeleted:
		steps = append(steps, "deleted its branch")
	case f.Branch != "":
		steps = append(steps, "kept branch "+f.Branch)
	}
	if len(steps) == 0 {
		return "nothing"
	}
	return strings.Join(steps, ", ")
}

func short(commit string) string { return commit[:min(len(commit), 12)] }
