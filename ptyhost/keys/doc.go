// Package keys is what a UI or send-keys sends a run, encoded as a terminal app
// reads it: keys, pastes and mouse reports, with the modes that shape their bytes.
// It imports nothing of Corral's: runs encodes at the run (its screen's Modes),
// ui builds the items, ptyhost/screen reports the Modes.
//
// EncodeKey turns a key press into the bytes an xterm sends, given the modes
// the hosted app has switched on (application cursor keys, bracketed paste);
// ParseSendKeys and EncodeItems do the same for a tmux-style send-keys line;
// EncodePaste wraps pasted text in bracketed-paste markers when the app asked
// for them and removes any marker inside the text, so a paste can never turn
// into typed keys. A combination a legacy terminal cannot express is an error,
// never a guess. ModeTracker follows the modes from a run's output when no
// screen is kept, reading the sequences with x/ansi's parser.
package keys
