package runtime

import "github.com/hookwire/hookwire/core/wire"

// The hook process and its lines live in package wire, the layer below
// the chains; these names stay here for programs written against them.
type (
	// Command is wire.Command.
	Command = wire.Command
	// Process is wire.Process.
	Process = wire.Process
	// ProcessOptions is wire.ProcessOptions.
	ProcessOptions = wire.ProcessOptions
	// ConnOptions is wire.ConnOptions.
	ConnOptions = wire.ConnOptions
	// Conn is wire.Conn.
	Conn = wire.Conn
	// Child is wire.Child.
	Child = wire.Child
	// LineTooLongError is wire.LineTooLongError.
	LineTooLongError = wire.LineTooLongError
)

// Spawn is wire.Spawn.
var Spawn = wire.Spawn

// NewConn is wire.NewConn.
var NewConn = wire.NewConn

// ErrClosed is wire.ErrClosed.
var ErrClosed = wire.ErrClosed

// The defaults of package wire.
const (
	DefaultMaxLineSize  = wire.DefaultMaxLineSize
	DefaultHelloTimeout = wire.DefaultHelloTimeout
	DefaultStopTimeout  = wire.DefaultStopTimeout
)
