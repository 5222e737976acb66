package agenttest

import (
	"encoding/json"
	"net/http"
)

// The Anthropic Messages API as Claude Code uses it: POST /v1/messages?beta=true,
// streamed. Its main request carries the tool list (Bash among it); side requests (the
// session title) carry none.

const claudeShellTool = "Bash"

type anthropicRequest struct {
	Model  string `json:"model"`
	Stream bool   `json:"stream"`
	Tools  []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	OutputConfig struct {
		Format struct {
			Type   string `json:"type"`
			Schema struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schema"`
		} `json:"format"`
	} `json:"output_config"`
}

// sideText is the answer to a side request: the script's title, as JSON when the
// request asks for a schema (Claude Code 2.1 asks {"title": string} for the session
// title it then shows in the terminal title).
func (q anthropicRequest) sideText(title string) string {
	f := q.OutputConfig.Format
	if f.Type != "json_schema" {
		return title
	}
	return schemaAnswer(f.Schema.Properties, title)
}

func (q anthropicRequest) stage() stage {
	for _, m := range q.Messages {
		var blocks []struct {
			Type      string `json:"type"`
			ToolUseID string `json:"tool_use_id"`
		}
		json.Unmarshal(m.Content, &blocks) // a plain string content holds no result
		for _, b := range blocks {
			if m.Role == "user" && b.Type == "tool_result" && b.ToolUseID == CallID {
				return stageFinal
			}
		}
	}
	for _, t := range q.Tools {
		if t.Name == claudeShellTool {
			return stageTurn
		}
	}
	return stageSide
}

func (s *Server) serveAnthropic(w http.ResponseWriter, r *http.Request, body []byte) {
	var q anthropicRequest
	if err := json.Unmarshal(body, &q); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	st := q.stage()
	if st == stageSide || !q.Stream {
		s.anthropicPlain(w, r, q, q.sideText(s.script.Title))
		s.emit(EventSide, "anthropic", r)
		return
	}
	e := newSSE(w, r)
	e.send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_corral", "type": "message", "role": "assistant", "model": q.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 100, "output_tokens": 1}}})
	if st == stageFinal {
		s.emit(EventToolResult, "anthropic", r)
		if !s.anthropicText(e, s.script.Final) {
			s.emit(EventAborted, "anthropic", r)
			return
		}
		anthropicStop(e, "end_turn")
		s.emit(EventFinal, "anthropic", r)
		return
	}
	s.emit(EventTurn, "anthropic", r)
	if !s.anthropicText(e, s.script.Intro) {
		s.emit(EventAborted, "anthropic", r)
		return
	}
	s.emit(EventToolCall, "anthropic", r)
	s.anthropicToolUse(e)
	anthropicStop(e, "tool_use")
	s.emit(EventToolCallServed, "anthropic", r)
}

// anthropicText streams text as content block 0; false if the client went away.
func (s *Server) anthropicText(e *sse, text string) bool {
	e.send("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
		"content_block": map[string]any{"type": "text", "text": ""}})
	ok := s.stream(e, text, func(c string) {
		e.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": c}})
	})
	if ok {
		e.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	}
	return ok
}

// anthropicToolUse sends the Bash call as content block 1, its input in one delta.
func (s *Server) anthropicToolUse(e *sse) {
	input, _ := json.Marshal(map[string]string{"command": s.script.Command,
		"description": "Write a marker file"})
	e.send("content_block_start", map[string]any{"type": "content_block_start", "index": 1,
		"content_block": map[string]any{"type": "tool_use", "id": CallID, "name": claudeShellTool,
			"input": map[string]any{}}})
	e.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 1,
		"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
	e.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": 1})
}

func anthropicStop(e *sse, reason string) {
	e.send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": reason, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": 50}})
	e.send("message_stop", map[string]any{"type": "message_stop"})
}

// anthropicPlain answers a side request with text at once, streamed or not as asked.
func (s *Server) anthropicPlain(w http.ResponseWriter, r *http.Request, q anthropicRequest, text string) {
	if !q.Stream {
		writeJSON(w, map[string]any{"id": "msg_corral_side", "type": "message", "role": "assistant",
			"model": q.Model, "content": []any{map[string]any{"type": "text", "text": text}},
			"stop_reason": "end_turn", "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": 10, "output_tokens": 5}})
		return
	}
	e := newSSE(w, r)
	e.send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_corral_side", "type": "message", "role": "assistant", "model": q.Model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}})
	e.send("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
		"content_block": map[string]any{"type": "text", "text": ""}})
	e.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
		"delta": map[string]any{"type": "text_delta", "text": text}})
	e.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	anthropicStop(e, "end_turn")
}
