package runtime

import "github.com/hookwire/hookwire/core/protocol"

// Declared is what the hook process of that name answered in hook.hello
// when it last started: the modes its handlers need. ok is false for an
// in-process hook, a name the runtime does not run, and a hook that is down.
func (r *Runtime) Declared(name string) (modes []protocol.Mode, ok bool) {
	proc := r.process(name)
	if proc == nil {
		return nil, false
	}
	proc.mu.Lock()
	p := proc.proc
	proc.mu.Unlock()
	if p == nil {
		return nil, false
	}
	return p.Hello().Modes, true
}

// Down says why the hook process of that name will not come back (its
// restarts are disabled or used up); nil while it runs or restarts, and for
// a name the runtime does not run as a process.
func (r *Runtime) Down(name string) error {
	proc := r.process(name)
	if proc == nil {
		return nil
	}
	proc.mu.Lock()
	defer proc.mu.Unlock()
	return proc.down
}

// process is the hook process of that name, nil when there is none.
func (r *Runtime) process(name string) *processHook {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, h := range r.hooks {
		if h.name == name {
			return h.proc
		}
	}
	return nil
}
