// Package agenttest runs real coding-agent CLIs (Claude Code, codex, Gemini CLI,
// opencode) offline, for the agent-state detector's tests and for the recorder that
// makes its corpus (record/, testdata/corpus).
//
// It has three parts:
//
//   - a scripted model server on 127.0.0.1 (server.go) that speaks just enough of the
//     Anthropic Messages, OpenAI Responses, OpenAI Chat Completions and Gemini
//     generateContent APIs (anthropic.go, openai.go, chat.go, gemini.go). It answers
//     the CLIs' side requests (titles, routing) at once and plays one Script for the
//     main conversation: slow text, a shell tool call that needs the user's approval,
//     then, once the tool result comes back, a slow final answer. It publishes Events
//     so a driver knows what was served and when;
//   - private offline homes for each CLI (claude.go, codex.go, gemini_home.go,
//     opencode_home.go): config files that skip onboarding, trust the project, point
//     the CLI at the server and turn telemetry and updates off, returned as a Launch
//     (argv, env, working dir);
//   - Agent.Locate, which finds the installed CLIs in one npm prefix, never on PATH
//     (CORRAL_AGENTS_PREFIX or the one record.sh installs into, where each must be the
//     version the corpus was recorded with; or CORRAL_AGENTS_LATEST, any version: the
//     drift check's newest) and says how to install one that is missing or of another
//     version (Agent.Need skips a test with that message) (agent.go). The homes also
//     set the permission mode the tests need (asking before a command runs), whatever
//     the version's default.
//
// corpus.go reads the recorded corpus (asciicast v2 plus labelled phases, see
// ../testdata/corpus/README.md) so tests can replay it without the CLIs; check.go says
// what a well-formed recording is; signals.go lists the titles, OSC 7501/9/777/99
// sequences and bells in a stream.
package agenttest
