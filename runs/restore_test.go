package runs

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"corral/runs/agentstate"
)

const restoreToyRules = `agent = "toy"
commands = ["toy-agent"]

[[rule]]
name = "prompt"
state = "idle"
region = "bottom 2"
any = ['^>']

[session]
pin    = ["--sid", "{id}"]
given  = ["--sid"]
resume = ["--from", "{id}"]
drop   = ["--sid=", "--last"]
`

// Which lost records a restore starts: a plain command only with restore = true (its
// command as it was, its environment additions kept), an agent without an id only
// with Fresh (the options that pick a conversation dropped), never a run that ended
// otherwise than with its server; each once.
func TestRestoreWhichRecords(t *testing.T) {
	reg, err := OpenRegistry(t.TempDir(), testDefaults())
	if err != nil {
		t.Fatal(err)
	}
	toy, err := agentstate.ParseRules("toy.toml", []byte(restoreToyRules))
	if err != nil {
		t.Fatal(err)
	}
	s := newSup(t, WithRegistry(reg), WithScreens(), WithAgents(agentstate.Builtin().With(toy)))
	now := time.Now()
	lost := func(id, name, agent, session string, reason Reason, spec Spec) Record {
		spec.Name = name
		return Record{ID: id, Name: name, Backend: KindPTY, Spec: spec, PID: 4242, State: Exited, Reason: reason,
			CreatedAt: now.Add(time.Duration(len(id)) * time.Millisecond), AgentStatus: AgentStatus{Agent: agent}, SessionID: session,
			OwnerInstanceID: "igone"}
	}
	web := Spec{Shell: "echo restored-$MARK; sleep 30", PTY: true, Env: []string{"MARK=web"}, Restore: true}
	recs := []Record{
		lost("rweb", "web", "", "", Lost, web),
		lost("rplain", "plain", "", "", Lost, Spec{Argv: []string{"sleep", "30"}}),
		lost("rfresh", "fresh", "toy", "", OrphanReaped, Spec{Argv: []string{"toy-agent", "--last", "-v"}, PTY: true}),
		lost("rdone", "done", "toy", "0b5e3a57-9d5c-4c3e-8f0e-1a2b3c4d5e6f", Exit, Spec{Argv: []string{"toy-agent"}, PTY: true}),
	}
	if err := reg.withLock(func() error {
		for _, rec := range recs {
			if err := reg.write(rec); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	dry, err := s.Restore(ctx, RestoreOptions{DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Restored{}
	for _, r := range dry {
		got[r.From] = r
	}
	if len(dry) != 2 || got["rweb"].Skipped != SkippedDryRun || !got["rfresh"].Fresh ||
		!strings.Contains(got["rfresh"].Skipped, "restore --fresh") {
		t.Fatalf("dry run: %+v", dry)
	}
	done, err := s.Restore(ctx, RestoreOptions{Fresh: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range done {
		got[r.From] = r
	}
	if got["rweb"].ID == "" || got["rfresh"].ID == "" {
		t.Fatalf("restore --fresh: %+v", done)
	}
	waitOutput(t, s, got["rweb"].ID, "restored-web")
	if info, _ := s.Info(got["rweb"].ID); info.RestoredFrom != "rweb" || info.Name != "web" {
		t.Errorf("the restored command: %+v", info)
	}
	if a := got["rfresh"].Argv; !slices.Equal(a[:1], []string{"toy-agent"}) || slices.Contains(a, "--last") ||
		!slices.Contains(a, "-v") {
		t.Errorf("a fresh start keeps its command less the options that pick a conversation: %q", a)
	}
	if info, _ := s.Info(got["rfresh"].ID); len(info.SessionID) != 36 || !slices.Contains(info.Spec.Argv, "--sid") {
		t.Errorf("a fresh start pins a new id: %+v %q", info.SessionID, info.Spec.Argv)
	}
	if rec, _ := reg.record("rweb"); rec.RestoredBy != got["rweb"].ID {
		t.Errorf("the lost record says it was restored by %q, want %q", rec.RestoredBy, got["rweb"].ID)
	}
	// Named: one restored already, one not lost, one a plain command.
	_, err = s.Restore(ctx, RestoreOptions{IDs: []string{"rweb", "rdone", "rplain"}})
	for _, want := range []string{"rweb: restored already", "rdone: it is ended (exit), not lost", "rplain: a plain command"} {
		if !errors.Is(err, ErrRestore) || !strings.Contains(err.Error(), want) {
			t.Errorf("restore of named runs: %v, want %q", err, want)
		}
	}
	for _, id := range []string{got["rweb"].ID, got["rfresh"].ID} {
		s.Cancel(id)
		waitEnd(t, s, id)
	}
}

// A lost run a restore would start is kept past the finished-run TTL (its user may
// come back days after the reboot); once restored, or when it was not restorable, it
// goes with the TTL like any ended run.
func TestRestorableRecordOutlivesTheFinishedTTL(t *testing.T) {
	reg, err := OpenRegistry(t.TempDir(), testDefaults())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	reg.clock = func() time.Time { return now.Add(-3 * time.Hour) } // the records are written 3 h ago
	lost := func(id, agent, restoredBy string, reason Reason) Record {
		return Record{ID: id, Name: id, Backend: KindPTY, Spec: Spec{Name: id, Argv: []string{"toy-agent"}, PTY: true},
			PID: 4242, State: Exited, Reason: reason, CreatedAt: now.Add(-4 * time.Hour), AgentStatus: AgentStatus{Agent: agent},
			SessionID: "0b5e3a57-9d5c-4c3e-8f0e-1a2b3c4d5e6f", RestoredBy: restoredBy, OwnerInstanceID: "igone"}
	}
	if err := reg.withLock(func() error {
		for _, rec := range []Record{lost("rwaits", "toy", "", Lost), lost("rdone", "toy", "rnew", Lost),
			lost("rexit", "toy", "", Exit), lost("rplain", "", "", Lost)} {
			if err := reg.write(rec); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	reg.clock = time.Now
	s := newSup(t, WithRegistry(reg))
	if _, err := s.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	for id, kept := range map[string]bool{"rwaits": true, "rdone": false, "rexit": false, "rplain": false} {
		if _, err := reg.record(id); (err == nil) != kept {
			t.Errorf("record %s: kept %v after 3 h, want %v", id, err == nil, kept)
		}
	}
	reg.clock = func() time.Time { return now.Add(RestorableTTL + time.Hour) }
	if _, err := s.Reconcile(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := reg.record("rwaits"); err == nil {
		t.Errorf("a restorable record is kept past RestorableTTL")
	}
}

// A conversation id is learnt only from a hook run inside the run (its secret): a
// hook naming the run from elsewhere, or from another run, plants nothing a restore
// would resume.
func TestHookIDNeedsTheRunsSecret(t *testing.T) {
	toy, err := agentstate.ParseRules("toy.toml", []byte(strings.Replace(restoreToyRules, "[session]\n",
		"[session]\nhook = [\"session_id\"]\n", 1)))
	if err != nil {
		t.Fatal(err)
	}
	s := newSup(t, WithScreens(), WithAgents(agentstate.Builtin().With(toy)))
	mine := spawn(t, s, Spec{Name: "mine", Shell: "printf '> '; sleep 30", PTY: true, Agent: "toy"})
	other := spawn(t, s, Spec{Name: "other", Shell: "printf '> '; sleep 30", PTY: true, Agent: "toy"})
	secret := func(id string) string {
		r, err := s.get(id)
		if err != nil {
			t.Fatal(err)
		}
		return r.secret
	}
	const planted, own = "0b5e3a57-9d5c-4c3e-8f0e-000000000bad", "0b5e3a57-9d5c-4c3e-8f0e-00000000000d"
	for _, sec := range []string{"", secret(other), "0123"} {
		if err := s.Hook(mine, agentstate.HookReport{Event: "SessionStart", IDs: map[string]string{"session_id": planted},
			Secret: sec}); err != nil {
			t.Fatal(err)
		}
		if info, _ := s.Info(mine); info.SessionID != "" {
			t.Fatalf("a hook with secret %q planted conversation %q", sec, info.SessionID)
		}
	}
	if err := s.Hook(mine, agentstate.HookReport{Event: "SessionStart", IDs: map[string]string{"session_id": own},
		Secret: secret(mine)}); err != nil {
		t.Fatal(err)
	}
	if info, _ := s.Info(mine); info.SessionID != own {
		t.Errorf("the run's own hook: conversation %q, want %q", info.SessionID, own)
	}
	for _, id := range []string{mine, other} {
		s.Cancel(id)
		waitEnd(t, s, id)
	}
}

// A restore's ref: an id, the start of one, or a lost run's name — the one not
// restored yet when the run a restore started has the name too; two is ambiguous.
func TestRestoreRef(t *testing.T) {
	recs := []Record{
		{ID: "r111", Name: "api", State: Exited, Reason: Lost, RestoredBy: "r222"},
		{ID: "r222", Name: "api", State: Running},
		{ID: "r333", Name: "web", State: Exited, Reason: Lost},
		{ID: "r444", Name: "web", State: Exited, Reason: Lost},
		{ID: "r555", Name: "db", State: Exited, Reason: Lost, RestoredBy: "r666"},
		{ID: "r666", Name: "db", State: Exited, Reason: Lost},
	}
	for ref, want := range map[string]string{"r222": "r222", "r11": "r111", "api": "r111", "db": "r666", "nope": "nope"} {
		if got, err := restoreRef(recs, ref); err != nil || got != want {
			t.Errorf("restore %s: %q %v, want %q", ref, got, err, want)
		}
	}
	if _, err := restoreRef(recs, "web"); err == nil || !strings.Contains(err.Error(), `"web" names 2 lost runs (r333, r444): give the run id`) {
		t.Errorf("two lost runs of one name: %v", err)
	}
}

// A run restored after one reboot and lost in a second is restored again, from its own
// record: the first record says it was restored already, and the conversation the
// second holds is not taken for held by the first.
func TestRestoreChainAfterTwoReboots(t *testing.T) {
	reg, err := OpenRegistry(t.TempDir(), testDefaults())
	if err != nil {
		t.Fatal(err)
	}
	toy, err := agentstate.ParseRules("toy.toml", []byte(restoreToyRules))
	if err != nil {
		t.Fatal(err)
	}
	s := newSup(t, WithRegistry(reg), WithScreens(), WithAgents(agentstate.Builtin().With(toy)))
	const sid = "0b5e3a57-9d5c-4c3e-8f0e-00000000c4a1"
	now := time.Now()
	spec := Spec{Name: "agent", Shell: "", Argv: []string{"/bin/sh", "-c", "sleep 30", "toy-agent"}, PTY: true}
	first := Record{ID: "rfirst", Name: "agent", Backend: KindPTY, Spec: spec, PID: 4242, State: Exited, Reason: Lost,
		CreatedAt: now, AgentStatus: AgentStatus{Agent: "toy"}, SessionID: sid, RestoredBy: "rsecond", OwnerInstanceID: "igone"}
	second := first
	second.ID, second.RestoredBy, second.RestoredFrom, second.CreatedAt = "rsecond", "", "rfirst", now.Add(time.Second)
	if err := reg.withLock(func() error {
		if err := reg.write(first); err != nil {
			return err
		}
		return reg.write(second)
	}); err != nil {
		t.Fatal(err)
	}
	out, err := s.Restore(context.Background(), RestoreOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Restored{}
	for _, r := range out {
		got[r.From] = r
	}
	if got["rsecond"].ID == "" || got["rsecond"].SessionID != sid || !strings.Contains(got["rfirst"].Skipped, "restored already, as run rsecond") {
		t.Fatalf("the second reboot's restore: %+v", out)
	}
	if info, _ := s.Info(got["rsecond"].ID); info.SessionID != sid || info.RestoredFrom != "rsecond" {
		t.Errorf("the run restored from the restored run: %+v", info)
	}
	s.Cancel(got["rsecond"].ID)
	waitEnd(t, s, got["rsecond"].ID)
}

// A restore whose run could not start (its program gone) does not count: the lost
// record is not marked restored, and a later restore tries it again.
func TestRestoreThatFailedToStartCanBeTriedAgain(t *testing.T) {
	reg, err := OpenRegistry(t.TempDir(), testDefaults())
	if err != nil {
		t.Fatal(err)
	}
	toy, err := agentstate.ParseRules("toy.toml", []byte(restoreToyRules))
	if err != nil {
		t.Fatal(err)
	}
	s := newSup(t, WithRegistry(reg), WithScreens(), WithAgents(agentstate.Builtin().With(toy)))
	rec := Record{ID: "rgone", Name: "gone", Backend: KindPTY, PID: 4242, State: Exited, Reason: Lost,
		CreatedAt: time.Now(), AgentStatus: AgentStatus{Agent: "toy"}, SessionID: "0b5e3a57-9d5c-4c3e-8f0e-0000000009a1", OwnerInstanceID: "igone",
		Spec: Spec{Name: "gone", Argv: []string{t.TempDir() + "/toy-agent"}, PTY: true}}
	if err := reg.withLock(func() error { return reg.write(rec) }); err != nil {
		t.Fatal(err)
	}
	for try := range 2 {
		out, _ := s.Restore(context.Background(), RestoreOptions{})
		if len(out) != 1 || out[0].Error == "" || out[0].Skipped != "" {
			t.Fatalf("try %d: %+v", try, out)
		}
		if got, _ := reg.record("rgone"); got.RestoredBy != "" {
			t.Fatalf("try %d: a run that never started marked the record restored by %s", try, got.RestoredBy)
		}
	}
}

// Two lost records of one conversation: once a restore of one started a run with it,
// the other is not resumed, even after that run ended (a Corral restored it and quit
// before another Corral came to the second record): the conversation went on there.
func TestRestoreOfAConversationThatWentOnElsewhere(t *testing.T) {
	reg, err := OpenRegistry(t.TempDir(), testDefaults())
	if err != nil {
		t.Fatal(err)
	}
	toy, err := agentstate.ParseRules("toy.toml", []byte(restoreToyRules))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	const sid = "0b5e3a57-9d5c-4c3e-8f0e-00000000beef"
	rec := func(id string, reason Reason, restoredBy, from string, age time.Duration) Record {
		return Record{ID: id, Name: id, Backend: KindPTY, Spec: Spec{Name: id, Argv: []string{"toy-agent"}, PTY: true},
			PID: 4242, State: Exited, Reason: reason, CreatedAt: now.Add(-age), AgentStatus: AgentStatus{Agent: "toy"}, SessionID: sid,
			RestoredBy: restoredBy, RestoredFrom: from, OwnerInstanceID: "igone"}
	}
	if err := reg.withLock(func() error {
		for _, r := range []Record{rec("rlosta", Lost, "rnew", "", 3*time.Hour), rec("rlostb", Lost, "", "", 2*time.Hour),
			rec("rnew", SupervisorShutdown, "", "rlosta", time.Hour)} {
			if err := reg.write(r); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	s := newSup(t, WithRegistry(reg), WithAgents(agentstate.Builtin().With(toy)))
	out, err := s.Restore(context.Background(), RestoreOptions{IDs: []string{"rlostb"}})
	if !errors.Is(err, ErrRestore) || !strings.Contains(err.Error(), "went on in run rnew") {
		t.Fatalf("restore of a conversation that went on in another run: %v %+v", err, out)
	}
}
