[1m[37m[42m2026-11-24 08:38 +0000 Unknown[0m[39m[42m                   [1m[37mo Untracked changes
[0m[34m[49m2026-11-21 22:49 +0000 [32mSeed 3a662e71 maintainers [34mo[39m [1m[36m[fid][0m[39m[49m [36m[cli][39m [36m[main][39m [36m[uia][39m [36m[uib
[34m2026-11-21 22:43 +0000 [32mSeed 3a662e71 maintainers [34mo[39m ARCHITECTURE: the fixed-size
[34m2026-11-21 22:43 +0000 [32mSeed 3a662e71 maintainers [34mo[39m Replay at the recording's siz
[34m2026-11-21 22:33 +0000 [32mSeed 3a662e71 maintainers [34mo[39m ARCHITECTURE: the bench's flo
[34m2026-11-21 22:25 +0000 [32mSeed 3a662e71 maintainers [34mo[39m reaper: TestLastPID skips whe
[34m2026-11-21 22:20 +0000 [32mSeed 3a662e71 maintainers [34mo[39m UI: the terminal's window tit
[34m2026-11-21 22:14 +0000 [32mSeed 3a662e71 maintainers [34mo[39m Docs: bench timings and the i
[34m2026-11-21 22:12 +0000 [32mSeed 3a662e71 maintainers [34mo[39m BENCHMARKS.md from make bench
[34m2026-11-21 22:12 +0000 [32mSeed 3a662e71 maintainers [34mo[39m Review fixes: the tree cache
[34m2026-11-21 21:55 +0000 [32mSeed 3a662e71 maintainers [34mo[39m Cleanup reaps the members it
[34m2026-11-21 21:32 +0000 [32mSeed 3a662e71 maintainers [34mo[39m Bench: idle measured in two w
[34m2026-11-21 21:32 +0000 [32mSeed 3a662e71 maintainers [34mo[39m UI: the DESIGN §11 counters i
[34m2026-11-21 21:32 +0000 [32mSeed 3a662e71 maintainers [34mo[39m runs: one metrics writer at a
[34m2026-11-21 21:16 +0000 [32mSeed 3a662e71 maintainers [34mo[39m UI: autostart = false runs li
[34m2026-11-21 21:16 +0000 [32mSeed 3a662e71 maintainers [34mo[39m Idle CPU (issue 6): leases re
[34m2026-11-21 20:54 +0000 [32mSeed 3a662e71 maintainers [34mo[39m reaper: name our own session
[34m2026-11-21 20:49 +0000 [32mSeed 3a662e71 maintainers [34mo[39m main: one signal watcher for
[34m2026-11-21 20:32 +0000 [32mSeed 3a662e71 maintainers [34mo[39m Docs: make bench and the perf
[34m2026-11-21 20:32 +0000 [32mSeed 3a662e71 maintainers [34mo[39m Performance (issue 6): make b
[34m2026-11-21 19:11 +0000 [32mSeed 3a662e71 maintainers [34mo[39m One non-Linux reaper file; on
[34m2026-11-21 19:08 +0000 [32mSeed 3a662e71 maintainers [34mo[39m Fix review findings: a failed
[1m[37m[44m[main] Untracked changes[0m[39m[44m                                                     [1m[37m52%

