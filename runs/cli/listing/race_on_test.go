//go:build race

package listing

// raceOn: the race detector changes what escapes, so what a call allocates.
const raceOn = true
