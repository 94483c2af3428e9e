package protocol

import "testing"

func TestTheStagesAreTheRequestsAHookAnswersUnderAMode(t *testing.T) {
	var requests int
	for _, m := range Methods {
		if m.Mode != "" && !m.Notification {
			requests++
		}
	}
	if len(Stages) != requests {
		t.Fatalf("%d stages, %d requests a hook answers under a mode", len(Stages), requests)
	}
	for _, s := range Stages {
		info, ok := Lookup(s.Method())
		if !s.Valid() || !ok || info.Mode != s.Mode() || info.Name != "hook."+string(s) {
			t.Errorf("stage %q: method %q, mode %q, valid %v", s, s.Method(), s.Mode(), s.Valid())
		}
	}
	if s := Stage("event"); s.Valid() || s.Method() != "" {
		t.Errorf("%q is a stage", s)
	}
}
