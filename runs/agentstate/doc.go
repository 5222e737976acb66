// Package agentstate tells, for a PTY run of a coding agent, whether the agent works,
// waits for its human, or sits idle at its prompt: "who needs you".
//
// The rules are data. Each agent (Claude Code, codex, …) has a rule file (rules/,
// embedded; a user's files in the config dir add agents or replace one): the commands
// and npm packages it is recognised by, and rules, each naming a state, a priority,
// and clauses over a region — the title (OSC 0/2), the agent's own announcements
// (OSC 7501), its progress (OSC 9;4), its latest unanswered notification, or rows of
// the rendered screen — with patterns that must, may or must not match. The matching
// rule of highest priority decides (a waiting rule may also say which rows hold its
// question and one line of context: what a notification quotes, cleaned of box
// drawing and padding); when none does the state is unknown, and a program
// no rule file knows is unknown too: Corral does not guess.
//
// Waiting is strict. Peers' users complain most about a false "needs you" (an agent
// shown blocked while it sat at its plain prompt), so a waiting rule names the
// question itself (a permission prompt, a trust or login screen), never the prompt.
//
// A Detector keeps one run's state. It is fed an Input (signals tracked without
// emulation, and screen rows read only when a rule asks for them) after output
// arrives, and reports transitions with the rule that decided them; agent hooks
// (Claude Code's, codex's notify) only refine when a state began and why, since the
// screen is what the user sees.
package agentstate
