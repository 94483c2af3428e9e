// Package host describes the agent hosts whose behaviour the runtime
// reproduces, each as a value: which stages a configuration grants, how the
// hello reply and each reply line are read, what the host does with each
// kind of answer, what it announces and which configuration it accepts.
// The runtime's chain engine asks the value and knows no host by name;
// Reference follows the protocol documents, PicoClaw behaves as PicoClaw's
// code does, and each agent of core/agents is a value derived from its
// facts there.
package host

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hookwire/hookwire/core/config"

	"github.com/hookwire/hookwire/core/protocol"
)

// Host is what a host does where hosts differ. Each member left zero means
// what the protocol documents say, so Reference is a Host with only a name.
type Host struct {
	// Name is the host's name, as --host takes it.
	Name string
	// Title is its name in messages, such as "PicoClaw".
	Title string
	// Grants is the stages a configuration's intercept list turns on;
	// nil: the stages it names.
	Grants func(intercept []string) []string
	// ReadHello reads the hook.hello reply, or the error of the call, and
	// says why the hook fails to start; nil: the reply must say ok: true.
	ReadHello func(raw json.RawMessage, err error) error
	// HelloWait bounds the handshake when the embedder sets no bound; zero:
	// the wire's default.
	HelloWait time.Duration
	// MaxLineSize is the longest reply line read; zero: the wire's default.
	MaxLineSize int
	// StopsReadingAfterLongLine: a reply line over MaxLineSize stops the
	// host's reader of that hook for good, and every later call to it
	// times out.
	StopsReadingAfterLongLine bool
	// Reads reads the result of a reply before it is decoded: what the host
	// takes it for, and notes on what it made of it; nil: as it came.
	Reads func(method string, raw json.RawMessage) (json.RawMessage, []string)
	// Calls reports whether the host makes the call of method with params
	// at all, at a stage it grants; nil: always.
	Calls func(method string, params any) bool
	// Acts says what the host acts on of a decoded answer to method, sent
	// params, and notes on what it discarded or does besides; nil: all of
	// it, nothing more. It returns a value of the type of res.
	Acts func(method string, params, res any) (any, []string)
	// PassesReason reports whether the reason of an answer that ends a
	// chain with the action reaches the LLM; nil: always.
	PassesReason func(protocol.Action) bool
	// ReplacesWhole: a modify that leaves out meta, context, channel or
	// chat_id leaves them out; otherwise they are kept from the host's
	// object, as the documents' examples expect.
	ReplacesWhole bool
	// NeverRestarts: a crashed hook stays down.
	NeverRestarts bool
	// NoExtensions: hook.hello announces no protocol extension and no
	// max_line_bytes.
	NoExtensions bool
	// Emits reports whether the host sends events of a kind; nil: every kind.
	Emits func(kind string) bool
	// Writes lists the members of a method's request the host writes, in
	// its order, "!" marking those it writes even when empty; it leaves
	// out the others when empty. Nil (or a nil Writes) when it writes every
	// member of the params.
	Writes func(method string) []string
	// LoadConfig reads a hooks configuration file as the host reads it
	// (overlay, when not empty, is a hooks file in hookwire's format that
	// adds hookwire's settings); nil: hookwire's format, config.LoadConfig.
	LoadConfig func(path, overlay string) (config.Config, error)
	// CheckConfig lists, key by key, what the host refuses in its whole
	// configuration file (a hooks file is one whose other sections are
	// left out), and warns of what it does to one it accepts; nil: the
	// host takes hookwire's format, checked by config.ParseConfig.
	CheckConfig func(file []byte) []config.Problem
	// Loop is what the host's own agent loop sends where it differs from
	// hookwire's demo agent; nil: what the demo agent sends.
	Loop *Loop
	// FailedStart words the error of a hook that failed to start, which
	// fails the run; nil: as it is.
	FailedStart func(name string, err error) error
}

// Reference follows the protocol documents: what a hook returns is applied
// as the documents say (tools added in before_llm reach the LLM), with
// hookwire's extensions. It is the default.
var Reference = &Host{Name: "reference", Title: "the reference host"}

// Hosts are the hosts the runtime can reproduce: Reference, PicoClaw and
// every agent of core/agents behind the bridge.
var Hosts = append([]*Host{Reference, PicoClaw}, agentHosts()...)

// Parse finds a host by its name; empty means Reference.
func Parse(name string) (*Host, error) {
	if name == "" {
		return Reference, nil
	}
	i := slices.IndexFunc(Hosts, func(h *Host) bool { return h.Name == name })
	if i < 0 {
		names := make([]string, len(Hosts))
		for i, h := range Hosts {
			names[i] = h.Name
		}
		return nil, fmt.Errorf("unknown host %q (known: %s)", name, strings.Join(names, ", "))
	}
	return Hosts[i], nil
}

func (h *Host) String() string { return h.Name }

// Discards says what the host would discard or change of a hook's reply to
// method, sent params: raw is the reply's result as it came (the runtime's
// CallRecord.Discarded says the same of a call made). Nothing under
// Reference.
func (h *Host) Discards(method string, params any, raw json.RawMessage) []string {
	var notes []string
	if h.Reads != nil {
		raw, notes = h.Reads(method, raw)
	}
	res, err := protocol.DecodeResult(method, raw)
	if err != nil || h.Acts == nil {
		return notes
	}
	_, more := h.Acts(method, params, res)
	return append(notes, more...)
}

// Granted is the stages the intercept list turns on under the host.
func (h *Host) Granted(intercept []string) []string {
	if h.Grants == nil {
		return intercept
	}
	return h.Grants(intercept)
}
