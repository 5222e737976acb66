package config

import (
	"strings"
	"testing"
)

func TestSecretName(t *testing.T) {
	for name, want := range map[string]bool{
		"ANTHROPIC_API_KEY": true, "openai_api_key": true, "GH_TOKEN": true, "tokenfile": true,
		"CLIENT_SECRET": true, "Db_Password": true, "AWS_SECRET_ACCESS_KEY": true,
		"HOME": false, "KEYMAP": false, "MONKEY": false, "EDITOR": false, "PATH": false, "CORRAL_RUN_ID": false,
	} {
		if SecretName(name) != want {
			t.Errorf("SecretName(%q) = %v", name, !want)
		}
	}
}

// corral check prints no secret's value: not in a run's env, not in an assignment of
// its argv or cmd; the other values, the names and an empty secret are shown as they
// are, and the text still parses.
func TestEffectiveMasksSecrets(t *testing.T) {
	doc := `[[run]]
name = "claude"
argv = ["env", "ANTHROPIC_API_KEY=sk-ant-argv1", "HOME=/srv/agent-home", "claude"]
env = { ANTHROPIC_API_KEY = "sk-ant-env1", gh_token = "ghp_env2", DB_PASSWORD = "hunter2", EMPTY_SECRET = "", EDITOR = "vi" }

[[run]]
name = "shell"
cmd = "OPENAI_API_KEY='sk-q w' GH_TOKEN=ghp_cmd3 X=1 codex; export MY_SECRET=\"s e c\" && run"

[[run]]
name = "script"
argv = ["sh", "-c", "CLIENT_SECRET=sh4 prog"]
`
	f, err := Parse("corral.toml", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	text := f.Effective(Default())
	for _, secret := range []string{"sk-ant-argv1", "sk-ant-env1", "ghp_env2", "hunter2", "sk-q", "ghp_cmd3", "s e c", "sh4"} {
		if strings.Contains(text, secret) {
			t.Errorf("secret %q printed:\n%s", secret, text)
		}
	}
	for _, want := range []string{`"ANTHROPIC_API_KEY=<masked>"`, `"HOME=/srv/agent-home"`, `ANTHROPIC_API_KEY = "<masked>"`,
		`gh_token = "<masked>"`, `DB_PASSWORD = "<masked>"`, `EMPTY_SECRET = ""`, `EDITOR = "vi"`,
		`"OPENAI_API_KEY=<masked> GH_TOKEN=<masked> X=1 codex; export MY_SECRET=<masked> && run"`,
		`"CLIENT_SECRET=<masked> prog"`} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %s in\n%s", want, text)
		}
	}
	if _, err := Parse("corral.toml", []byte(text)); err != nil {
		t.Errorf("the masked text does not parse: %v\n%s", err, text)
	}
}
