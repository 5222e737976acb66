package agenttest

import (
	"fmt"
	"path/filepath"
)

// codexConfig is CODEX_HOME/config.toml: a model provider of our own at the server,
// approvals on request (so an escalated command asks), the project trusted (no trust
// question), the screen-reader question answered, and no update check or analytics.
// Plugins and tooltips are off: else it fetches a plugin catalogue (github.com,
// chatgpt.com) and an announcement (raw.githubusercontent.com) at start.
// The model is one codex knows (an unknown one works on fallback metadata but shows a
// warning); its offer to move to a newer model is marked as seen.
const codexConfig = `model = "gpt-5.5"
model_provider = "corral"
approval_policy = "on-request"
sandbox_mode = "workspace-write"
check_for_update_on_startup = false

[model_providers.corral]
name = "corral"
base_url = "%s/v1"
env_key = "CORRAL_AGENTTEST_KEY"
wire_api = "responses"

[projects."%s"]
trust_level = "trusted"

[tui]
screen_reader_detection_done = true
show_tooltips = false

[analytics]
enabled = false

[features]
plugins = false

[notice.model_migrations]
"gpt-5.5" = "gpt-6-sol"
`

// prepareCodex writes CODEX_HOME (root/codex-home, never under /tmp: codex refuses
// helper binaries in a temp dir) and HOME.
func prepareCodex(bin string, l layout, url string) (Launch, error) {
	codexHome := filepath.Join(l.root, "codex-home")
	cfg := fmt.Sprintf(codexConfig, url, l.project)
	if err := writeFile(filepath.Join(codexHome, "config.toml"), cfg); err != nil {
		return Launch{}, err
	}
	vars := map[string]string{
		"CODEX_HOME":           codexHome,
		"CORRAL_AGENTTEST_KEY": "sk-corral-offline",
	}
	set := map[string]string{"config.toml": cfg}
	for k, v := range vars {
		set[k] = v
	}
	return Launch{Argv: []string{bin}, Env: withSettings(baseEnv(bin, l), vars), Dir: l.project,
		Settings: set}, nil
}
