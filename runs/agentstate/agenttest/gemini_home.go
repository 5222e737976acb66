package agenttest

import (
	"encoding/json"
	"path/filepath"
)

// prepareGemini writes HOME/.gemini/settings.json: API-key auth (the key and the base
// URL come from the environment), the project trusted, and no update check, usage
// statistics, telemetry or IDE integration.
func prepareGemini(bin string, l layout, url string) (Launch, error) {
	settings := map[string]any{
		"security": map[string]any{
			"auth":        map[string]any{"selectedType": "gemini-api-key"},
			"folderTrust": map[string]any{"enabled": false},
		},
		// The approval mode the tests need, said rather than left to the version's default.
		"general":   map[string]any{"disableAutoUpdate": true, "disableUpdateNag": true, "defaultApprovalMode": "default"},
		"privacy":   map[string]any{"usageStatisticsEnabled": false},
		"telemetry": map[string]any{"enabled": false},
		"ide":       map[string]any{"enabled": false, "hasSeenNudge": true},
	}
	b, err := json.MarshalIndent(settings, "", "  ")
	if err != nil {
		return Launch{}, err
	}
	gem := filepath.Join(l.home, ".gemini")
	if err := writeFile(filepath.Join(gem, "settings.json"), string(b)); err != nil {
		return Launch{}, err
	}
	trusted, _ := json.Marshal(map[string]string{l.project: "TRUST_FOLDER"})
	if err := writeFile(filepath.Join(gem, "trustedFolders.json"), string(trusted)); err != nil {
		return Launch{}, err
	}
	vars := map[string]string{
		"GEMINI_API_KEY":         "corral-offline-key",
		"GOOGLE_GEMINI_BASE_URL": url,
	}
	set := map[string]string{"settings.json": string(b)}
	for k, v := range vars {
		set[k] = v
	}
	return Launch{Argv: []string{bin}, Env: withSettings(baseEnv(bin, l), vars), Dir: l.project,
		Settings: set}, nil
}
