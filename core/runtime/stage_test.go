package runtime

import (
	"strings"
	"testing"

	"github.com/hookwire/hookwire/core/protocol"
)

// The stages are the protocol's intercepting methods, each with the method
// and the hello mode the method table gives it: a method added to the table
// is a stage without a change here, and Stages, which orders them, lists
// every one.
func TestEveryStageTakesItsMethodAndModeFromTheMethodTable(t *testing.T) {
	want := map[Stage][2]string{
		StageBeforeLLM:   {protocol.MethodBeforeLLM, string(protocol.ModeLLM)},
		StageAfterLLM:    {protocol.MethodAfterLLM, string(protocol.ModeLLM)},
		StageBeforeTool:  {protocol.MethodBeforeTool, string(protocol.ModeTool)},
		StageApproveTool: {protocol.MethodApproveTool, string(protocol.ModeApprove)},
		StageAfterTool:   {protocol.MethodAfterTool, string(protocol.ModeTool)},
	}
	for s, w := range want {
		if got := [2]string{s.Method(), string(s.Mode())}; got != w {
			t.Errorf("stage %s: method and mode %v, want %v", s, got, w)
		}
	}
	listed := map[Stage]bool{}
	for _, s := range Stages {
		if !s.Valid() {
			t.Errorf("Stages lists %q, which names no intercepting method of the table", s)
		}
		if stageChains[s] == nil {
			t.Errorf("stage %s has no chain (a row in stages.go)", s)
		}
		listed[s] = true
	}
	for _, m := range protocol.Methods {
		if s := Stage(strings.TrimPrefix(m.Name, "hook.")); s.Valid() && !listed[s] {
			t.Errorf("the method table's %s is a stage that Stages does not list", m.Name)
		}
	}
	for _, s := range []Stage{"hello", "runtime_event", "event", "", "hook.before_tool"} {
		if s.Valid() || s.Method() != "" {
			t.Errorf("%q is no stage, yet valid()=%v Method()=%q", s, s.Valid(), s.Method())
		}
	}
}
