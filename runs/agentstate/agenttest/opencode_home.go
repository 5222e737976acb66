package agenttest

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// opencodeLock is the config dir's package-lock.json: the plugin package opencode
// would install there counts as installed.
const opencodeLock = `{"lockfileVersion": 3, "packages": {"": {"dependencies": {"@opencode-ai/plugin": "*"}}}}
`

// opencodeModel is the model the config declares for the server's provider.
const opencodeModel = "corral-model"

// prepareOpencode writes HOME/.config/opencode/opencode.json: a provider of our own
// (the OpenAI-compatible SDK, so Chat Completions) at the server and its one model as
// the model and the small model (titles), shell commands asking first, and no
// autoupdate or sharing; OPENCODE_CONFIG names it too, so it is read even when the
// caller's XDG_CONFIG_HOME reaches the CLI. The environment turns off its fetch of the
// models catalogue (models.dev), its default plugins (installed from npm) and LSP
// downloads.
func prepareOpencode(bin string, l layout, url string) (Launch, error) {
	cfg := map[string]any{
		"$schema":     "https://opencode.ai/config.json",
		"model":       "corral/" + opencodeModel,
		"small_model": "corral/" + opencodeModel,
		"autoupdate":  false,
		"share":       "disabled",
		"permission":  map[string]any{"bash": "ask", "edit": "ask"},
		"provider": map[string]any{"corral": map[string]any{
			"npm":  "@ai-sdk/openai-compatible",
			"name": "Corral",
			"options": map[string]any{
				"baseURL": url + "/v1",
				"apiKey":  "corral-offline-key",
			},
			"models": map[string]any{opencodeModel: map[string]any{
				"name":      "Corral model",
				"tool_call": true,
				"limit":     map[string]any{"context": 128000, "output": 8192},
			}},
		}},
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return Launch{}, err
	}
	dir := filepath.Join(l.home, ".config", "opencode")
	file := filepath.Join(dir, "opencode.json")
	if err := writeFile(file, string(b)); err != nil {
		return Launch{}, err
	}
	// At start opencode installs @opencode-ai/plugin (for local plugins' types) into
	// every config dir from the npm registry, unless node_modules exists and the lock
	// file already lists every dependency package.json asks for. No plugin is used here.
	if err := writeFile(filepath.Join(dir, "package-lock.json"), opencodeLock); err != nil {
		return Launch{}, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "node_modules"), 0o755); err != nil {
		return Launch{}, err
	}
	vars := map[string]string{
		"OPENCODE_CONFIG":                  file,
		"OPENCODE_DISABLE_AUTOUPDATE":      "1",
		"OPENCODE_DISABLE_MODELS_FETCH":    "1",
		"OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
		"OPENCODE_DISABLE_LSP_DOWNLOAD":    "1",
		"OPENCODE_DISABLE_SHARE":           "1",
	}
	set := map[string]string{"opencode.json": string(b), "package-lock.json": opencodeLock}
	for k, v := range vars {
		set[k] = v
	}
	return Launch{Argv: []string{bin}, Env: withSettings(baseEnv(bin, l), vars), Dir: l.project,
		Settings: set}, nil
}
