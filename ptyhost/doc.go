// Package ptyhost runs a command and carries its bytes: execution hosts with one
// contract. The terminal screen that PTY output draws is package ptyhost/screen;
// the encoding of keys and pastes into those bytes is package ptyhost/keys (the
// screen imports it for Modes); ptyhost imports neither.
//
// # Hosts
//
// Start runs an *exec.Cmd either on a PTY (Options.PTY) or with plain pipes, and
// returns a *Proc with the same surface for both, so the supervisor has one
// lifecycle for both run kinds:
//
//   - The child always leads a new session, so pid == pgid == sid. A PTY child
//     gets the slave as stdin, stdout, stderr and controlling terminal
//     (Setsid+Setctty), sized before it starts. A pipe child gets Setsid (never
//     Setpgid: a child left in Corral's session could open Corral's terminal
//     through /dev/tty and be stopped by SIGTTIN) and three pipes, with stdout
//     and stderr kept apart. The host alone sets the child's stdio, so the
//     child never gets Corral's own terminal.
//   - Output is drained continuously by one reader goroutine per stream, whether
//     or not anyone looks, because a full PTY or pipe buffer blocks the child.
//     Each reader reuses one 32 KiB buffer and hands every chunk to
//     Options.OnOutput. A PTY has one stream, Stdout.
//   - Input is queued (bounded by Options.WriteQueue) and written in order by
//     one writer goroutine, so a child that never reads blocks neither the
//     caller nor the reader (a PTY whose input and output both fill up
//     deadlocks a single-threaded host). A small write that finds nothing
//     queued is tried at once on the caller's path, one write(2) on the
//     non-blocking descriptor that cannot block: a typed key does not wait for
//     the goroutine to be scheduled.
//   - Output ends with EOF on a pipe and with EIO on a Linux PTY master, which
//     is how the kernel says the last holder of the slave is gone. A grandchild
//     that keeps the slave or a pipe open delays that indefinitely, so after
//     the root exits the supervisor calls FinishOutput with a bound.
//   - Ending the readers must work while a Read is blocked. creack/pty leaves
//     the master in blocking mode (it calls Fd() for its ioctls), and a
//     blocking Read cannot be interrupted by Close or a deadline. The host
//     therefore duplicates the master, makes the duplicate non-blocking and
//     hands it to Go's poller; pipes from os.Pipe are pollable already.
//   - The host never signals anything. Closing the PTY master is not a way to
//     kill a run (some programs ignore the hang-up, and other process groups of
//     the session never get it); termination belongs to package reaper.
//
// Resize (PTY only) sets the window size with TIOCSWINSZ; the kernel sends
// SIGWINCH to the foreground process group. CloseStdin (pipe only) closes
// stdin after the queued input, so the child reads EOF; on a PTY the caller
// writes ^D instead. Windows has no host yet: Start returns ErrNotSupported.
//
// # Keys and pastes
//
// What a UI or send-keys sends a run (keys, pastes, mouse reports, the modes that
// shape their bytes) is package ptyhost/keys, which imports nothing of ptyhost.
//
// # Corral's own terminal
//
// Corral's own terminal while a run is in the foreground (raw mode, SIGWINCH,
// the escape chord, the output filter) is package runs/cli/foreground/hostterm.
package ptyhost
