// Command record records the agent-state corpus: each coding-agent CLI run offline
// in a Corral PTY against the scripted model server, driven through its phases, its
// output saved as NAME.cast and its labelled phases as NAME.phases.json.
//
//	go run ./runs/agentstate/agenttest/record [-out DIR] [-root DIR] [-q] [NAME…]
//	go run ./runs/agentstate/agenttest/record -summary ROWS [-out DIR] [NAME…]
//	go run ./runs/agentstate/agenttest/record -compare CORPUS -suffix -VERSION -out DIR NAME…
//
// NAME is a recording (claude, codex, gemini, opencode, codex-unfocused,
// claude-interrupt);
// none records them all. runs/agentstate/testdata/corpus/record.sh installs the CLIs
// and runs this.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
)

func main() {
	out := flag.String("out", "runs/agentstate/testdata/corpus", "where the corpus files go")
	root := flag.String("root", defaultRoot(), "where the agents' offline homes and projects go (emptied per recording; not under /tmp)")
	quiet := flag.Bool("q", false, "do not log each step")
	summary := flag.Int("summary", 0, "record nothing: describe the recordings in -out, with this many screen rows per phase")
	against := flag.String("compare", "", "record nothing: compare the recordings in -out (NAME-VERSION, a newer CLI's) with the recorded ones in this corpus dir, in Markdown")
	suffix := flag.String("suffix", "", "added to each recording's name (\"-2.1.332\": the version of a newer CLI, beside the recorded one)")
	flag.Parse()
	names := flag.Args()
	if len(names) == 0 {
		for _, v := range variants {
			names = append(names, v.name)
		}
	}
	if *against != "" {
		for _, name := range names {
			if err := compare(os.Stdout, *against, *out, name+*suffix, max(*summary, 12)); err != nil {
				log.Fatal(err)
			}
		}
		return
	}
	if *summary > 0 {
		for _, name := range names {
			name += *suffix
			if err := summarize(os.Stdout, *out, name, *summary); err != nil {
				log.Fatal(err)
			}
		}
		return
	}
	logf := log.Printf
	if *quiet {
		logf = func(string, ...any) {}
	}
	failed := 0
	for _, name := range names {
		i := slices.IndexFunc(variants, func(v variant) bool { return v.name == name })
		if i < 0 {
			log.Fatalf("no recording %q", name)
		}
		v := variants[i]
		v.name += *suffix
		prefixed := func(f string, a ...any) { logf("%s: "+f, append([]any{v.name}, a...)...) }
		if err := record(v, *out, filepath.Join(*root, v.name), prefixed); err != nil {
			log.Printf("%s: FAILED: %v", v.name, err)
			failed++
		}
	}
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "%d of %d recordings failed\n", failed, len(names))
		os.Exit(1)
	}
}

// defaultRoot is ~/.cache/corral-agents: stable (the project path shows on the
// agents' screens) and not under /tmp, where codex will not run its helpers.
func defaultRoot() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		dir = "/var/cache"
	}
	return filepath.Join(dir, "corral-agents")
}
