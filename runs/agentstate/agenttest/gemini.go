package agenttest

import (
	"encoding/json"
	"net/http"
	"strings"
)

// The Gemini API as Gemini CLI uses it: POST /v1beta/models/M:streamGenerateContent
// ?alt=sse for the conversation, :generateContent for its utility requests (model
// routing, the next-speaker check), which ask for JSON.

const geminiShellTool = "run_shell_command"

// geminiSideJSON satisfies every JSON-schema side request Gemini CLI 0.61 makes: the
// router reads model_choice, the next-speaker check next_speaker ("user": the turn
// is over); unknown fields are ignored by both.
const geminiSideJSON = `{"reasoning":"A simple, bounded task.","model_choice":"flash","next_speaker":"user"}`

type geminiRequest struct {
	Contents []struct {
		Parts []struct {
			FunctionResponse *struct {
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"functionResponse"`
		} `json:"parts"`
	} `json:"contents"`
	Tools []struct {
		FunctionDeclarations []struct {
			Name string `json:"name"`
		} `json:"functionDeclarations"`
	} `json:"tools"`
	GenerationConfig struct {
		ResponseMimeType string `json:"responseMimeType"`
	} `json:"generationConfig"`
}

// stage: Gemini CLI 0.61 returns a function's result by name, without the call's id.
func (q geminiRequest) stage() stage {
	for _, c := range q.Contents {
		for _, p := range c.Parts {
			if r := p.FunctionResponse; r != nil && (r.ID == CallID || r.ID == "" && r.Name == geminiShellTool) {
				return stageFinal
			}
		}
	}
	for _, t := range q.Tools {
		for _, f := range t.FunctionDeclarations {
			if f.Name == geminiShellTool {
				return stageTurn
			}
		}
	}
	return stageSide
}

func (s *Server) serveGemini(w http.ResponseWriter, r *http.Request, body []byte) {
	var q geminiRequest
	if err := json.Unmarshal(body, &q); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	st := q.stage()
	streamed := strings.Contains(r.URL.Path, ":streamGenerateContent")
	if st == stageSide || !streamed {
		text := s.script.Title
		if q.GenerationConfig.ResponseMimeType == "application/json" {
			text = geminiSideJSON
		}
		s.geminiPlain(w, r, streamed, text)
		s.emit(EventSide, "gemini", r)
		return
	}
	e := newSSE(w, r)
	if st == stageFinal {
		s.emit(EventToolResult, "gemini", r)
		if !s.geminiText(e, s.script.Final) {
			s.emit(EventAborted, "gemini", r)
			return
		}
		e.send("", geminiChunk(nil, "STOP"))
		s.emit(EventFinal, "gemini", r)
		return
	}
	s.emit(EventTurn, "gemini", r)
	if !s.geminiText(e, s.script.Intro) {
		s.emit(EventAborted, "gemini", r)
		return
	}
	s.emit(EventToolCall, "gemini", r)
	call := map[string]any{"functionCall": map[string]any{"id": CallID, "name": geminiShellTool,
		"args": map[string]any{"command": s.script.Command, "description": "Write a marker file"}}}
	e.send("", geminiChunk([]any{call}, "STOP"))
	s.emit(EventToolCallServed, "gemini", r)
}

// geminiText streams text one chunk per event; false if the client went away.
func (s *Server) geminiText(e *sse, text string) bool {
	return s.stream(e, text, func(c string) {
		e.send("", geminiChunk([]any{map[string]any{"text": c}}, ""))
	})
}

// geminiChunk is one GenerateContentResponse with parts and, on the last, a finish
// reason and usage.
func geminiChunk(parts []any, finish string) map[string]any {
	if parts == nil {
		parts = []any{map[string]any{"text": ""}}
	}
	cand := map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "index": 0}
	resp := map[string]any{"candidates": []any{cand}, "modelVersion": "gemini-2.5-flash"}
	if finish != "" {
		cand["finishReason"] = finish
		resp["usageMetadata"] = map[string]any{"promptTokenCount": 100,
			"candidatesTokenCount": 50, "totalTokenCount": 150}
	}
	return resp
}

// geminiPlain answers at once, as one streamed event or one JSON body.
func (s *Server) geminiPlain(w http.ResponseWriter, r *http.Request, streamed bool, text string) {
	resp := geminiChunk([]any{map[string]any{"text": text}}, "STOP")
	if !streamed {
		writeJSON(w, resp)
		return
	}
	newSSE(w, r).send("", resp)
}
