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

// codex resumes with a subcommand: `codex resume ID` names its id at launch (so the
// run holds it, and no other run resumes it), and neither the resume form nor a fresh
// start keeps the old resume words — a fresh start resumes nothing.
func TestCodexResumeSubcommand(t *testing.T) {
	const id = "0b5e3a57-9d5c-4c3e-8f0e-1a2b3c4d5e6f"
	const old = "11111111-2222-3333-4444-555555555555"
	codex := builtinAgent(t, "codex")
	if _, got := codex.Session.Launch(codex, []string{"codex", "resume", old, "-m", "o3"}, func() string { return id }); got != old {
		t.Errorf("codex resume %s names its id at launch: got %q", old, got)
	}
	if _, got := codex.Session.Launch(codex, []string{"codex", "resume", "--last"}, func() string { return id }); got != "" {
		t.Errorf("codex resume --last names no id: got %q", got)
	}
	for _, c := range []struct{ argv, resume, fresh []string }{
		{[]string{"codex", "resume", old, "-m", "o3"}, []string{"codex", "resume", id, "-m", "o3"}, []string{"codex", "-m", "o3"}},
		{[]string{"codex", "resume", "--last", "-m", "o3"}, []string{"codex", "resume", id, "-m", "o3"}, []string{"codex", "-m", "o3"}},
		{[]string{"codex", "-m", "o3", "write tests"}, []string{"codex", "resume", id, "-m", "o3"}, []string{"codex", "-m", "o3", "write tests"}},
	} {
		if got, ok := codex.Session.ResumeArgv(codex, c.argv, id); !ok || !slices.Equal(got, c.resume) {
			t.Errorf("resume %q: %q, want %q", c.argv, got, c.resume)
		}
		if got := codex.Session.FreshArgv(codex, c.argv); !slices.Equal(got, c.fresh) {
			t.Errorf("fresh %q: %q, want %q", c.argv, got, c.fresh)
		}
	}
}
