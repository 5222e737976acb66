// Package watchdog enforces per-run deadlines: an overall timeout and a
// no-output timeout.
//
// It is pure logic. Time comes from an injected Clock so tests drive it with
// FakeClock instead of sleeping, and every number (timeouts, warning fraction,
// echo window, derivation rule) is passed in by the caller; defaults live in
// the config package so they are documented in one place.
//
// A Watchdog calls its fire function at most once, from a timer goroutine and
// never while holding its own lock, so fire may call back into the Watchdog
// (State, Stop) without deadlocking.
package watchdog
