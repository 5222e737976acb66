* [33md11d217[39m Bench: idle measured in two windows (first minute, then steady) beside
 a tmux server and a static Bubble Tea program (the framework's floor); cancel o
f a shell tree
* [33me793a95[39m UI: the DESIGN §11 counters in the events pane's title, read with the 
once-a-second refresh, redrawn only when they change
* [33m3b9bd95[39m runs: one metrics writer at a time (race between a direct heartbeat an
d the background one)
* [33md79be30[39m UI: autostart = false runs listed as not started and started with R; C
ORRAL_CPUPROFILE
* [33m6e37a85[39m Idle CPU (issue 6): leases renewed at half-life without fsync; escape 
scan paced by the kernel's last pid; process trees from the members last seen wh
ile nothing forks; children from the scan, not one read per thread; metrics save
d only when changed; a zombie test that waits for the whole thread group
* [33m827cd46[39m reaper: name our own session first when it reads as 0 or 1 inside a co
ntainer's PID namespace (CI)
* [33m3349d3e[39m main: one signal watcher for corral run and the UI
* [33m5684496[39m Docs: make bench and the performance figures; deferred emulation in th
e byte path
* [33mb63ddaa[39m Performance (issue 6): make bench with a tmux comparison writing BENCH
MARKS.md; lazy screen emulation of provably dead backlog; scanner fast paths; bu
ffered transcript; frame-rate cap for busy runs; Screen.Attention; benchmarks fo
r flood, idle, streaming, latency, memory
* [33m32825c0[39m One non-Linux reaper file; one monitor for own and adopted runs

