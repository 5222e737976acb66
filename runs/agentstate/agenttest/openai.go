package agenttest

import (
	"encoding/json"
	"net/http"
)

// The OpenAI Responses API as codex uses it: POST /v1/responses, streamed. The main
// request carries the tools (exec_command among them); the title side request none.

const codexShellTool = "exec_command"

type responsesRequest struct {
	Model  string          `json:"model"`
	Stream bool            `json:"stream"`
	Tools  json.RawMessage `json:"tools"`
	Input  json.RawMessage `json:"input"`
	Text   struct {
		Format struct {
			Type   string `json:"type"`
			Schema struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"schema"`
		} `json:"format"`
	} `json:"text"`
}

// sideText answers a side request: codex 0.169's thread-title request asks for
// {"title": string} through a JSON schema.
func (q responsesRequest) sideText(title string) string {
	if f := q.Text.Format; f.Type == "json_schema" {
		return schemaAnswer(f.Schema.Properties, title)
	}
	return title
}

func (q responsesRequest) stage() stage {
	var items []struct {
		Type   string `json:"type"`
		CallID string `json:"call_id"`
	}
	json.Unmarshal(q.Input, &items) // a plain string input holds no result
	for _, it := range items {
		if it.Type == "function_call_output" && it.CallID == CallID {
			return stageFinal
		}
	}
	var tools []struct {
		Name string `json:"name"`
	}
	json.Unmarshal(q.Tools, &tools)
	for _, t := range tools {
		if t.Name == codexShellTool {
			return stageTurn
		}
	}
	return stageSide
}

func (s *Server) serveResponses(w http.ResponseWriter, r *http.Request, body []byte) {
	var q responsesRequest
	if err := json.Unmarshal(body, &q); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	st := q.stage()
	e := newSSE(w, r)
	e.send("response.created", map[string]any{"type": "response.created",
		"response": map[string]any{"id": "resp_corral", "object": "response", "status": "in_progress",
			"model": q.Model, "output": []any{}}})
	switch st {
	case stageSide:
		responsesMessage(e, 0, q.sideText(s.script.Title), nil)
		responsesDone(e)
		s.emit(EventSide, "openai", r)
	case stageFinal:
		s.emit(EventToolResult, "openai", r)
		if !s.responsesText(e, s.script.Final) {
			s.emit(EventAborted, "openai", r)
			return
		}
		responsesDone(e)
		s.emit(EventFinal, "openai", r)
	default:
		s.emit(EventTurn, "openai", r)
		if !s.responsesText(e, s.script.Intro) {
			s.emit(EventAborted, "openai", r)
			return
		}
		s.emit(EventToolCall, "openai", r)
		s.responsesCall(e)
		responsesDone(e)
		s.emit(EventToolCallServed, "openai", r)
	}
}

// responsesText streams text as output item 0; false if the client went away.
func (s *Server) responsesText(e *sse, text string) bool {
	return responsesMessage(e, 0, text, func(send func(string)) bool {
		return s.stream(e, text, send)
	})
}

// responsesMessage writes an assistant message item: added, its text deltas (through
// stream when given, else one delta), done.
func responsesMessage(e *sse, index int, text string, stream func(func(string)) bool) bool {
	item := map[string]any{"type": "message", "id": "msg_corral", "role": "assistant",
		"status": "in_progress", "content": []any{}}
	e.send("response.output_item.added", map[string]any{"type": "response.output_item.added",
		"output_index": index, "item": item})
	send := func(c string) {
		e.send("response.output_text.delta", map[string]any{"type": "response.output_text.delta",
			"item_id": "msg_corral", "output_index": index, "content_index": 0, "delta": c})
	}
	if stream == nil {
		send(text)
	} else if !stream(send) {
		return false
	}
	done := map[string]any{"type": "message", "id": "msg_corral", "role": "assistant",
		"status": "completed", "content": []any{map[string]any{"type": "output_text",
			"text": text, "annotations": []any{}}}}
	e.send("response.output_item.done", map[string]any{"type": "response.output_item.done",
		"output_index": index, "item": done})
	return true
}

// responsesCall writes the exec_command call. It asks for escalated permissions, which
// under approval_policy "on-request" makes codex ask the user first.
func (s *Server) responsesCall(e *sse) {
	args, _ := json.Marshal(map[string]any{"cmd": s.script.Command,
		"sandbox_permissions": "require_escalated",
		"justification":       "Write a marker file in the project"})
	item := map[string]any{"type": "function_call", "id": "fc_corral", "call_id": CallID,
		"name": codexShellTool, "arguments": string(args), "status": "completed"}
	e.send("response.output_item.added", map[string]any{"type": "response.output_item.added",
		"output_index": 1, "item": item})
	e.send("response.output_item.done", map[string]any{"type": "response.output_item.done",
		"output_index": 1, "item": item})
}

func responsesDone(e *sse) {
	e.send("response.completed", map[string]any{"type": "response.completed",
		"response": map[string]any{"id": "resp_corral", "object": "response", "status": "completed",
			"usage": map[string]any{"input_tokens": 100, "output_tokens": 50, "total_tokens": 150,
				"input_tokens_details":  map[string]any{"cached_tokens": 0},
				"output_tokens_details": map[string]any{"reasoning_tokens": 0}}}})
}
