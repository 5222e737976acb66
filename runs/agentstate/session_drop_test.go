package agentstate

import (
	"slices"
	"testing"
)

// The resume form drops exactly the words that pick a conversation or type a prompt,
// and keeps every other option with its value: an option that may go without its
// value (claude's -r, --resume open a picker) does not eat the option after it.
func TestResumeArgvDropsExactly(t *testing.T) {
	const id = "0b5e3a57-9d5c-4c3e-8f0e-1a2b3c4d5e6f"
	const old = "11111111-2222-3333-4444-555555555555"
	claude := builtinAgent(t, "claude")
	for _, c := range []struct{ argv, want []string }{
		{[]string{"claude", "--model", "opus", "--dangerously-skip-permissions", "fix it"},
			[]string{"claude", "--resume", id, "--model", "opus", "--dangerously-skip-permissions"}},
		{[]string{"claude", "-c", "--model", "opus"}, []string{"claude", "--resume", id, "--model", "opus"}},
		{[]string{"claude", "--continue", "--dangerously-skip-permissions"}, []string{"claude", "--resume", id, "--dangerously-skip-permissions"}},
		{[]string{"claude", "--session-id", old, "--model", "opus"}, []string{"claude", "--resume", id, "--model", "opus"}},
		{[]string{"claude", "--resume", old, "--model", "opus"}, []string{"claude", "--resume", id, "--model", "opus"}},
		{[]string{"claude", "--resume=" + old, "--model", "opus"}, []string{"claude", "--resume", id, "--model", "opus"}},
		{[]string{"claude", "-r", old, "--model", "opus"}, []string{"claude", "--resume", id, "--model", "opus"}},
		// A prompt equal to another option's value: the value stays, the prompt goes.
		{[]string{"claude", "--model", "opus", "opus"}, []string{"claude", "--resume", id, "--model", "opus"}},
		// --resume and -r without a value (the picker): the next option is kept.
		{[]string{"claude", "--resume", "--model", "opus"}, []string{"claude", "--resume", id, "--model", "opus"}},
		{[]string{"claude", "-r", "--dangerously-skip-permissions"}, []string{"claude", "--resume", id, "--dangerously-skip-permissions"}},
	} {
		got, ok := claude.Session.ResumeArgv(claude, c.argv, id)
		if !ok || !slices.Equal(got, c.want) {
			t.Errorf("resume %q: %q, want %q", c.argv, got, c.want)
		}
	}
	if got := claude.Session.FreshArgv(claude, []string{"claude", "--resume", "--model", "opus", "fix it"}); !slices.Equal(got,
		[]string{"claude", "--model", "opus", "fix it"}) {
		t.Errorf("fresh start of claude --resume --model opus: %q", got)
	}
}
