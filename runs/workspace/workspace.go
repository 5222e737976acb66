// Package workspace gives a run a git worktree of its own: a branch made from a base
// commit and checked out in a directory the user can find, the run's changes against
// that base (its diff and its +/- figures), and finishing it (commit, merge into the
// branch the base came from, remove) without ever losing uncommitted work.
//
// Git is called as a program (the user's git, their config and hooks), never
// reimplemented, and only when asked: nothing here polls. It imports none of Corral's
// packages.
package workspace

// Worktree is what a run's record keeps of its worktree.
type Worktree struct {
	Repo string `json:"repo"` // the main checkout's top directory
	Path string `json:"path"` // the worktree's top directory
	// Dir is where the run starts: Path, or the same subdirectory of it that the run's
	// directory was of Repo.
	Dir    string `json:"dir"`
	Branch string `json:"branch"`
	Base   string `json:"base"` // the base commit, a full hash
	// BaseRef is the branch the base came from ("main"), where finishing merges by
	// default; "" when the base was not a branch (a tag, a commit, a detached HEAD).
	BaseRef string `json:"base_ref,omitempty"`
	// NewBranch says Corral made the branch; false when an existing one was reused.
	NewBranch bool `json:"new_branch,omitempty"`
}

// Stat is how much a worktree changed against its base: lines added and removed and
// files touched, counting commits on its branch, staged, unstaged and untracked files.
type Stat struct {
	Added   int `json:"added"`
	Removed int `json:"removed"`
	Files   int `json:"files"`
}
