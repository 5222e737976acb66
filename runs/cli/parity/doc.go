// Package parity runs one command twice, once in a PTY and once with plain pipes, at
// the same moment and under the same supervisor, and says what differs:
// the output after normalization, the reason, the exit code or signal, the cleanup,
// and the escapees each left to clean.
//
// Normalization (what Rules lists, and corral parity --help prints) removes what a
// terminal adds or hides rather than what the program chose to write: escape
// sequences, CRLF line endings, lines rewritten with a carriage return, and the
// terminal's echo of the input the comparison typed. Options.Raw compares the bytes
// as read instead.
package parity
