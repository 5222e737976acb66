package agentstate

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Agents' hooks (optional): Claude Code runs a command for its hook events with the
// event as JSON on stdin; codex runs its notify program with the event as JSON in its
// last argument. `corral hook` hands either here, and the run named by CORRAL_RUN_ID
// gets what it implies. Hooks miss interrupts and approvals (peers found so), so they
// never decide a state on their own (Detector.Hook).

// HookReport is what one hook event says of its agent.
type HookReport struct {
	State State  // the state it implies (Unknown: none)
	Event string // its name, with its kind where it has one ("Notification/permission_prompt")
	// IDs are the payload's top-level strings whose key names an id (session_id,
	// thread-id): the agent's [session] hook keys pick its conversation id from them.
	IDs map[string]string `json:",omitempty"`
	// Secret is the reporting process's run secret (CORRAL_RUN_SECRET in its
	// environment), not from the payload: only a hook that runs inside the run — whose
	// secret it inherited — may say which conversation the run holds.
	Secret string `json:"-"`
}

// ParseHook reads a hook's JSON payload (Claude Code's or codex's).
func ParseHook(payload []byte) (HookReport, error) {
	var h struct {
		Event            string `json:"hook_event_name"`   // Claude Code
		NotificationType string `json:"notification_type"` // Claude Code's Notification
		Message          string `json:"message"`
		Type             string `json:"type"` // codex notify
	}
	if err := json.Unmarshal(payload, &h); err != nil {
		return HookReport{}, fmt.Errorf("hook payload: %w", err)
	}
	var rep HookReport
	switch {
	case h.Event != "":
		rep = claudeHook(h.Event, h.NotificationType, h.Message)
	case h.Type != "":
		rep = codexHook(h.Type)
	default:
		return HookReport{}, fmt.Errorf("hook payload names no event (hook_event_name or type)")
	}
	rep.IDs = hookIDs(payload)
	return rep, nil
}

// hookIDs are a payload's top-level string fields whose key ends in id.
func hookIDs(payload []byte) map[string]string {
	var all map[string]any
	json.Unmarshal(payload, &all)
	var ids map[string]string
	for k, v := range all {
		s, ok := v.(string)
		lk := strings.ToLower(k)
		if !ok || s == "" || !(strings.HasSuffix(lk, "_id") || strings.HasSuffix(lk, "-id")) {
			continue
		}
		if ids == nil {
			ids = map[string]string{}
		}
		ids[k] = s
	}
	return ids
}

// claudeHook maps Claude Code's hook events.
func claudeHook(event, kind, msg string) HookReport {
	switch event {
	case "UserPromptSubmit", "PreToolUse", "PostToolUse", "SubagentStart":
		return HookReport{State: Working, Event: event}
	case "Stop":
		return HookReport{State: Idle, Event: event}
	case "PermissionRequest":
		return HookReport{State: Waiting, Event: event}
	case "Notification":
		if kind == "" && strings.Contains(msg, "permission") {
			kind = "permission_prompt"
		}
		switch kind {
		case "permission_prompt", "elicitation_dialog":
			return HookReport{State: Waiting, Event: event + "/" + kind}
		case "idle_prompt":
			return HookReport{State: Idle, Event: event + "/" + kind}
		}
		return HookReport{State: Unknown, Event: event + "/" + kind}
	}
	return HookReport{State: Unknown, Event: event} // SubagentStop can come after the turn ended: no word
}

// codexHook maps codex's notify events.
func codexHook(kind string) HookReport {
	switch kind {
	case "agent-turn-complete":
		return HookReport{State: Idle, Event: kind}
	case "approval-requested":
		return HookReport{State: Waiting, Event: kind}
	}
	return HookReport{State: Unknown, Event: kind}
}

// HookSettings is the snippet that makes agent call `corral hook` (corral agents
// --print-hooks AGENT): for Claude Code the hooks of its settings.json, for codex the
// notify line of its config.toml. Corral never edits an agent's settings itself.
func HookSettings(agent, corral string) (string, error) {
	switch agent {
	case "claude":
		cmd, _ := json.Marshal(corral + " hook")
		var b strings.Builder
		b.WriteString("{\n  \"hooks\": {\n")
		events := []string{"UserPromptSubmit", "Stop", "Notification", "PermissionRequest"}
		for i, e := range events {
			fmt.Fprintf(&b, "    %q: [{\"hooks\": [{\"type\": \"command\", \"command\": %s}]}]", e, cmd)
			if i < len(events)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("  }\n}\n")
		return b.String(), nil
	case "codex":
		return fmt.Sprintf("notify = [%q, \"hook\"]\n", corral), nil
	}
	return "", fmt.Errorf("no hooks known for %q (claude and codex have them)", agent)
}
