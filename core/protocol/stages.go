package protocol

import "strings"

// Stage is a method a hook answers under a mode, named without its
// "hook.": the names of a hooks configuration's intercept list and
// failure_policy, and of the runtime's and the agents' stages.
type Stage string

// The stages.
const (
	StageBeforeLLM   Stage = "before_llm"
	StageAfterLLM    Stage = "after_llm"
	StageBeforeTool  Stage = "before_tool"
	StageApproveTool Stage = "approve_tool"
	StageAfterTool   Stage = "after_tool"
)

// Stages lists every stage, in the order an agent meets them.
var Stages = []Stage{StageBeforeLLM, StageAfterLLM, StageBeforeTool, StageApproveTool, StageAfterTool}

// stageMethods maps each stage to its row in the method table: the
// requests a hook answers under a mode.
var stageMethods = func() map[Stage]MethodInfo {
	m := map[Stage]MethodInfo{}
	for _, info := range Methods {
		if info.Mode != "" && !info.Notification {
			m[Stage(strings.TrimPrefix(info.Name, "hook."))] = info
		}
	}
	return m
}()

// Method is the stage's JSON-RPC method; empty for a string that names no
// stage.
func (s Stage) Method() string { return stageMethods[s].Name }

// Valid reports whether s names a stage.
func (s Stage) Valid() bool {
	_, ok := stageMethods[s]
	return ok
}

// Mode is the hello mode a hook needs to be called at the stage.
func (s Stage) Mode() Mode { return stageMethods[s].Mode }
