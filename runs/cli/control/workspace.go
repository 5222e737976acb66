package control

import (
	"flag"
	"fmt"
	"io"

	"corral/runs"
	"corral/runs/api"
	"corral/runs/client"
	"corral/runs/workspace"
)

func finishFlags(fs *flag.FlagSet, o *opts) {
	fs.StringVar(&o.commit, "commit", "", "commit the worktree's uncommitted and untracked files first, with this message")
	fs.BoolVar(&o.merge, "merge", false, "merge the run's branch into --into in the main checkout (which must be on that\n"+
		"branch and clean); a conflict refuses the whole finish and names the files")
	fs.BoolVar(&o.noMerge, "no-merge", false, "do not merge (the default): the branch is kept for later")
	fs.StringVar(&o.into, "into", "", "the branch to merge into (implies --merge; default: the branch the base came from)")
	fs.BoolVar(&o.deleteBranch, "delete-branch", false, "delete the run's branch too (refused while its commits are on no other branch, unless --force)")
	fs.BoolVar(&o.force, "force", false, "remove the worktree even if uncommitted changes, untracked files or unmerged\n"+
		"commits would be lost")
}

// diff prints the run's diff as git prints it; at a terminal its control sequences
// are made visible (a file's escapes are the run's output, not Corral's), colours
// kept.
func diff(c *client.Client, o *opts, env Env) int {
	d, err := api.DiffAll(o.ctx, c, api.DiffArgs{ID: o.args[0], Stat: o.stat, Color: o.color})
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral diff: %v\n", err)
		return ExitFailure
	}
	if o.json {
		printJSON(env.Stdout, struct {
			Worktree workspace.Worktree `json:"worktree"`
			Stat     workspace.Stat     `json:"stat"`
			Text     string             `json:"text"`
		}{d.Worktree, d.Stat, string(d.Text)})
		return ExitOK
	}
	w := runOutput(env, o)
	w.Write(d.Text)
	flush(w)
	return ExitOK
}

// finish ends the run if live (as kill does, without a question: the UI asks, a
// script has decided), then commits, merges and removes as its flags say.
func finish(c *client.Client, o *opts, env Env) int {
	if o.noMerge && (o.merge || o.into != "") {
		fmt.Fprintf(env.Stderr, "corral finish: --no-merge with --merge or --into: choose one (corral finish --help)\n")
		return ExitUsage
	}
	a := api.FinishArgs{ID: o.args[0], FinishOptions: runs.FinishOptions{Commit: o.commit, Merge: o.merge || o.into != "",
		Into: o.into, DeleteBranch: o.deleteBranch, Force: o.force}}
	res, err := api.Finish.Call(o.ctx, c, a)
	if err != nil {
		fmt.Fprintf(env.Stderr, "corral finish: %v\n", err) // says what was done, if anything
		return ExitFailure
	}
	if o.json {
		printJSON(env.Stdout, res)
		return ExitOK
	}
	printFinished(env.Stdout, res)
	return ExitOK
}

// printFinished says what finish did, one line.
func printFinished(w io.Writer, res runs.FinishResult) {
	ended := ""
	if res.Ended {
		ended = "ended the run, "
	}
	fmt.Fprintf(w, "finished %s (%s): %s%s\n", res.ID, res.Worktree.Path, ended, res.Finished.Done())
}
