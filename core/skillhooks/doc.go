// Package skillhooks runs the declarative prompt hooks of skills: each
// skill may declare, in skills/<skill>/hooks/hooks.json, Markdown prompts
// to insert into the messages the LLM sees at five points of a turn, with
// a role, a persistence and, after tools, a tool filter. No code: a skill
// author writes JSON and Markdown.
//
// The rules are those of the source document (a Python HookManager that
// appends to and removes from the list of messages of a request), mapped
// onto the protocol's hook.before_llm and hook.after_tool:
//
//	timing              inserted                                    removed
//	after_user_input    at the turn's first LLM call, after the     never: it lasts the turn
//	                    messages the host sent
//	before_planning     into each planning call (planning: true)    right after that call
//	before_first_agent  at the first agent round                    at the end of the turn
//	before_each_agent   at each agent round                         at the next round
//	after_tool_call     after each tool that passes tool_filter,    when the next round's tools
//	                    seen by the next LLM call                   run (filtered out or not)
//
// A hook message sits where the document's list would have it: after the
// host's messages present when it was inserted, before those that came
// later (the assistant's tool calls, the tool results). Hooks of the same
// timing come in the order of the skills, then of their hooks.json.
//
// Hosts replace the request of a modify, they do not merge, so the engine
// computes each request from the one it receives: it keeps, per turn
// (meta.TurnID within meta.SessionKey), which hook messages are in the
// list and after how many of the host's messages each one sits, and
// answers before_llm with the host's messages and those in between.
// Non-persistent messages therefore never enter the conversation history
// the host stores: they exist only in the requests sent to the LLM.
//
// A call is an agent round unless the host marks it as a planning call
// (planning: true, a protocol extension; PicoClaw and the reference agent
// make none), or it offers no tools and comes before any agent round: the
// document's direct call, which has no agent loop and so sees only
// after_user_input.
//
// Persistent hooks are never removed. The document has the front end store
// them in the conversation history it sends back; here the engine keeps
// them itself, per session key, and shows them in later turns of the same
// session just before the message that opened the turn. Unlike the
// document, a persistent hook is inserted once per session, not each time
// its timing comes again: the document duplicates because its back end
// cannot see what the front end stored, and a second copy of a prompt
// tells the LLM nothing new.
package skillhooks
