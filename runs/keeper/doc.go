// Package keeper holds what a run needs to outlive the server that started it
// (ARCHITECTURE.md, "Runs that outlive their server (the keeper)"): its PTY master or
// pipes, its parenthood and the output written while no server reads.
//
// The keeper is one small process per state dir, the server's parent: a client starts
// the keeper (corral keeper), the keeper starts the server with one end of a
// SOCK_SEQPACKET socket pair, and the server hands it a copy of every run's
// descriptors as the run starts (Keep) and tells it when the run has ended (Drop).
// While the server lives the keeper reads nothing and costs nothing. It is a child
// subreaper, so when the server dies — kill -9, OOM, a panic — the runs become its
// children instead of init's. It then reads their output into a bounded buffer per
// run (full: it stops reading, and the run blocks as on a terminal nobody reads),
// observes their exits without reaping them (the pid stays pinned, as the server
// keeps it), and starts a new server, which asks for everything (Recover): the
// descriptors back, the output kept, the exit statuses. corral server --upgrade ends
// the server the same way on purpose (Handover), naming the binary the keeper starts
// next.
//
// The keeper does no emulation, no UI and no policy: it never signals a run, never
// reads the registry, and exits once it keeps nothing and its server has ended (or,
// keeping nothing, on SIGTERM). Nothing wedges it: it starts servers through a
// descriptor of its binary, kills one that does not say hello in time, and says in
// keeper.status when none comes up, for clients to report.
//
// One keeper per state dir rather than one per run (containerd's shim, Podman's
// conmon): a Go process costs a few MiB of resident memory, so fifty keepers would cost
// more than the server; one keeper that reads nothing while the server lives adds no
// hop to a key or a byte.
package keeper
