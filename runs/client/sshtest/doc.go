// Package sshtest starts real OpenSSH servers for tests: each "host" is
// one sshd on a free 127.0.0.1 port behind an alias of a temporary ssh config, with
// a temporary host key, a temporary client key and its authorized_keys, and a state
// dir of its own (the CORRAL_STATE_DIR its sessions see, as a remote's default would
// be). A host can be stopped — its listener and every connection's sshd ended, so
// it is unreachable as a machine that drops off the network — and restarted on the
// same port with the same keys. Start's cleanup ends every sshd it started and the
// corral servers the test left running on each host. Linux only (it finds an sshd's
// connections among its descendants through /proc).
package sshtest
