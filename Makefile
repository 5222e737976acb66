# Corral's build, test and benchmark entry points. `make test` is what CI runs.
GO      ?= go
BIN     ?= bin/corral
PKGS    := ./...
TESTFLAGS ?= -race -count=1 -timeout 20m

.PHONY: all build test fmt-check vet unit cross bench demo autoplay tour record agents-latest clean

all: build

build:
	$(GO) build -o $(BIN) .

# The one test command: formatting, vet, race-enabled tests (twice for ownership: cgroups
# and sessions), cross-compiles.
test: fmt-check vet unit cross

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet $(PKGS)

# Where Corral can make cgroups (root here and in CI) the first pass owns runs by cgroups;
# the second runs the ownership suite again on sessions, the fallback where it cannot.
unit:
	$(GO) test $(TESTFLAGS) $(PKGS)
	CORRAL_CGROUP_ROOT=off $(GO) test $(TESTFLAGS) ./reaper/ ./runs/ .

cross:
	GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null .
	GOOS=darwin GOARCH=amd64 $(GO) build -o /dev/null .
	GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null .

# Benchmarks: figures, not pass/fail. Every Go benchmark once (BENCHTIME trades precision
# for time), then .ci/bench: the performance table's figures with their repetitions, tmux measured side
# by side, written to BENCHMARKS.md (with the Go run appended). About 15 minutes on 2 cores.
BENCHTIME ?= 30x
bench:
	@mkdir -p bin
	$(GO) test -run '^$$' -bench . -benchtime $(BENCHTIME) $(PKGS) | tee bin/go-bench.txt
	BENCHTIME=$(BENCHTIME) ./.ci/bench bin/go-bench.txt

# The interactive demo: the UI on a built-in scenario (needs only Go and /bin/sh).
demo: build
	./$(BIN) demo

# The same scenario playing itself (what CI runs, and what `make record` records).
autoplay: build
	./$(BIN) demo --autoplay

# A headless tour of `corral run`: reasons, escalation, the JSON report.
tour: build
	./demo/headless.sh $(BIN)

# Records the self-playing demo with asciinema (installed from Debian's packages when
# missing) to demo/demo.cast; `corral replay demo/demo.cast` or `asciinema play` plays it.
# Then exports it to demo/demo.svg, the README's picture of the demo.
record: build
	@command -v asciinema >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq asciinema; }
	asciinema rec --overwrite -c "./$(BIN) demo --autoplay" demo/demo.cast
	./$(BIN) export --idle-limit 2s demo/demo.cast demo/demo.svg

# The agent CLI drift check (not CI: it needs the npm registry): the newest Claude Code,
# codex, Gemini CLI and opencode into a prefix of their own (CORRAL_AGENTS_LATEST, default
# ~/agents-latest), the real-agent tests and the recorder run against them offline,
# and what changed per CLI written to runs/agentstate/testdata/corpus/DRIFT.md.
agents-latest:
	./runs/agentstate/testdata/corpus/drift.sh

clean:
	rm -rf bin
