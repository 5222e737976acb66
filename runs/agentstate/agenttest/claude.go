package agenttest

import (
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"

	"corral/runs/agentstate/cliver"
)

// claudeKey is a dummy key in Anthropic's format; Claude Code asks once whether to
// use a key from the environment unless its last 20 characters are approved in
// .claude.json.
const claudeKey = "sk-ant-api03-corral-offline-0000000000000000000000000000000000000000"

// prepareClaude writes HOME/.claude.json with onboarding done, the project trusted
// and the key approved; without these Claude Code stops at its welcome, trust or key
// question. The environment points it at the server and turns off its update check,
// telemetry and every other request it would make elsewhere.
func prepareClaude(bin string, l layout, url string) (Launch, error) {
	cfg := map[string]any{
		"hasCompletedOnboarding": true,
		"lastOnboardingVersion":  "2.1.197",
		"numStartups":            1,
		"autoUpdates":            false,
		// Newer versions ask once at start whether auto mode should be the default.
		"hasSeenAutoDefaultNudge": true,
		"customApiKeyResponses":   map[string]any{"approved": []string{claudeKey[len(claudeKey)-20:]}, "rejected": []string{}},
		"projects": map[string]any{l.project: map[string]any{
			"hasTrustDialogAccepted":        true,
			"hasCompletedProjectOnboarding": true,
			"allowedTools":                  []string{},
		}},
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return Launch{}, err
	}
	if err := writeFile(filepath.Join(l.home, ".claude.json"), string(b)); err != nil {
		return Launch{}, err
	}
	// The permission mode the tests need: asking before a command runs. Newer versions
	// start in a mode that never asks ("auto") unless told; the mode is "default" in
	// 2.1.197 and was renamed "manual" later.
	settings := fmt.Sprintf(`{"permissions": {"defaultMode": %q}}`, claudeAskingMode(l.version))
	if err := writeFile(filepath.Join(l.home, ".claude", "settings.json"), settings); err != nil {
		return Launch{}, err
	}
	vars := map[string]string{
		"ANTHROPIC_BASE_URL":                       url,
		"ANTHROPIC_API_KEY":                        claudeKey,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
		"DISABLE_AUTOUPDATER":                      "1",
		"DISABLE_TELEMETRY":                        "1",
		"DISABLE_ERROR_REPORTING":                  "1",
		// Else it fetches the official plugin marketplace (downloads.claude.ai, github.com).
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL": "1",
	}
	set := map[string]string{".claude/settings.json": settings}
	maps.Copy(set, vars)
	return Launch{Argv: []string{bin}, Env: withSettings(baseEnv(bin, l), vars), Dir: l.project,
		Settings: set}, nil
}

// claudeAskingMode is the name of the permission mode that asks before a command runs.
func claudeAskingMode(version string) string {
	if cliver.Compare(version, "2.1.197") > 0 {
		return "manual"
	}
	return "default"
}
