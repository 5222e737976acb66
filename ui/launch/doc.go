// Package launch opens the terminal UI: over a supervisor in this process (Local:
// corral --local, demo, replay) or as a client of the state dir's server, here or on
// another host over ssh (Attached: corral, corral attach). It reads what the UI
// opens with (Load: the config file's runs and its [keys] and [ui]; the UI's kept
// layout), catches Corral's signals for the UI's life and wires the program to the
// core's events; under corral demo --autoplay the UI drives itself through the
// scenario (autoplay.go). It prints what the operator is told on leaving; errors are
// returned, ErrUsage marking those main maps to the usage exit code.
package launch
