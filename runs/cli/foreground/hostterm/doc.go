// Package hostterm is Corral's own terminal while a run is in the foreground
// (corral run, and the control verbs that print a run's output): raw mode so every
// key reaches a PTY run, its size and SIGWINCH followed, stdin forwarded with the
// one chord Corral keeps (EscapeChord: Ctrl-] then '.' ends the run), output passed
// through Filter so a hosted program cannot act on the host terminal, and the
// signals Corral itself receives turned into a first stop and later hurries.
//
// It knows nothing of runs: what it drives is a small interface (Input) or a
// function value given by the caller. It sits beside package foreground, which wires
// it to a run; main (a run's output printed) and ui/launch (Corral's signals) use it
// too.
package hostterm
