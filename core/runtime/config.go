package runtime

import (
	"time"

	"github.com/hookwire/hookwire/core/config"
)

// The hooks configuration lives in package config, in every format it is
// read from; these names stay here for programs written against them.
type (
	// Config is config.Config.
	Config = config.Config
	// HooksConfig is config.HooksConfig.
	HooksConfig = config.HooksConfig
	// DefaultsConfig is config.DefaultsConfig.
	DefaultsConfig = config.DefaultsConfig
	// BuiltinConfig is config.BuiltinConfig.
	BuiltinConfig = config.BuiltinConfig
	// ProcessConfig is config.ProcessConfig.
	ProcessConfig = config.ProcessConfig
	// RestartConfig is config.RestartConfig.
	RestartConfig = config.RestartConfig
)

// LoadConfig is config.LoadConfig.
func LoadConfig(path string) (Config, error) { return config.LoadConfig(path) }

// ParseConfig is config.ParseConfig.
func ParseConfig(data []byte) (Config, error) { return config.ParseConfig(data) }

// The values of hooks.defaults.respond and hooks.defaults.approval.
const (
	RespondAny      = config.RespondAny
	RespondOwnTools = config.RespondOwnTools
	ApprovalDeny    = config.ApprovalDeny
	ApprovalAllow   = config.ApprovalAllow
	MaxDurationMS   = config.MaxDurationMS
)

// policies turns a process's failure_policy block into the runtime's form.
func policies(p ProcessConfig) map[Stage]Policy {
	out := map[Stage]Policy{}
	for s, v := range p.FailurePolicy {
		out[Stage(s)] = Policy(v)
	}
	return out
}

// restartPolicy is the runtime's form of a process's restart block.
func restartPolicy(r RestartConfig) RestartPolicy {
	return RestartPolicy{
		Never:       r.Enabled != nil && !*r.Enabled,
		MaxRestarts: r.MaxRestarts,
		Backoff:     ms(r.BackoffMS),
		MaxBackoff:  ms(r.MaxBackoffMS),
	}
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }
