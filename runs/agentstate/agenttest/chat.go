package agenttest

import (
	"encoding/json"
	"net/http"
	"time"
)

// The OpenAI Chat Completions API as opencode's OpenAI-compatible providers use it:
// POST /v1/chat/completions, streamed. The main request carries the tools (bash among
// them); the title request none. A tool result comes back as a "tool" message.

const opencodeShellTool = "bash"

type chatRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role       string `json:"role"`
		ToolCallID string `json:"tool_call_id"`
	} `json:"messages"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

func (q chatRequest) stage() stage {
	for _, m := range q.Messages {
		if m.Role == "tool" && m.ToolCallID == CallID {
			return stageFinal
		}
	}
	for _, t := range q.Tools {
		if t.Function.Name == opencodeShellTool {
			return stageTurn
		}
	}
	return stageSide
}

func (s *Server) serveChat(w http.ResponseWriter, r *http.Request, body []byte) {
	var q chatRequest
	if err := json.Unmarshal(body, &q); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	st := q.stage()
	if st == stageSide || !q.Stream {
		s.chatPlain(w, r, q, s.script.Title)
		s.emit(EventSide, "chat", r)
		return
	}
	e := newSSE(w, r)
	c := chatChunks{e: e, model: q.Model}
	if st == stageFinal {
		s.emit(EventToolResult, "chat", r)
		if !s.chatText(c, s.script.Final) {
			s.emit(EventAborted, "chat", r)
			return
		}
		c.finish("stop")
		s.emit(EventFinal, "chat", r)
		return
	}
	s.emit(EventTurn, "chat", r)
	if !s.chatText(c, s.script.Intro) {
		s.emit(EventAborted, "chat", r)
		return
	}
	s.emit(EventToolCall, "chat", r)
	args, _ := json.Marshal(map[string]string{"command": s.script.Command,
		"description": "Write a marker file"})
	c.send(map[string]any{"tool_calls": []any{map[string]any{"index": 0, "id": CallID,
		"type": "function", "function": map[string]any{"name": opencodeShellTool,
			"arguments": string(args)}}}}, nil)
	c.finish("tool_calls")
	s.emit(EventToolCallServed, "chat", r)
}

// chatText streams text as content deltas; false if the client went away.
func (s *Server) chatText(c chatChunks, text string) bool {
	c.send(map[string]any{"role": "assistant", "content": ""}, nil)
	return s.stream(c.e, text, func(t string) { c.send(map[string]any{"content": t}, nil) })
}

// chatChunks writes chat.completion.chunk events.
type chatChunks struct {
	e     *sse
	model string
}

func (c chatChunks) send(delta map[string]any, finish any) {
	c.e.send("", map[string]any{"id": "chatcmpl-corral", "object": "chat.completion.chunk",
		"created": time.Now().Unix(), "model": c.model,
		"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}}})
}

// finish ends the stream: the finish reason, the usage, then [DONE].
func (c chatChunks) finish(reason string) {
	c.send(map[string]any{}, reason)
	c.e.send("", map[string]any{"id": "chatcmpl-corral", "object": "chat.completion.chunk",
		"created": time.Now().Unix(), "model": c.model, "choices": []any{},
		"usage": map[string]any{"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150}})
	c.e.w.Write([]byte("data: [DONE]\n\n"))
	if f, ok := c.e.w.(http.Flusher); ok {
		f.Flush()
	}
}

// chatPlain answers a side request with text at once, streamed or not as asked.
func (s *Server) chatPlain(w http.ResponseWriter, r *http.Request, q chatRequest, text string) {
	if !q.Stream {
		writeJSON(w, map[string]any{"id": "chatcmpl-corral-side", "object": "chat.completion",
			"created": time.Now().Unix(), "model": q.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": text}}},
			"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
		return
	}
	c := chatChunks{e: newSSE(w, r), model: q.Model}
	c.send(map[string]any{"role": "assistant", "content": text}, nil)
	c.finish("stop")
}
