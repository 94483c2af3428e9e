package session

import (
	"log/slog"
	"net"
	"os"
	"sync"
	"time"

	"github.com/hookwire/hookwire/core/inspect/feed"
)

// Server takes the connections of a session's server on its socket: only
// its own user's, each answered in a goroutine of its own, none once it
// closes.
type Server struct {
	ln     net.Listener
	socket string
	log    *slog.Logger

	mu       sync.Mutex
	closing  bool           // the server stops: it takes no more connections
	inflight sync.WaitGroup // the connections being answered
}

// Listen listens on a Unix socket that only this user may use; log is
// told of the connections refused.
func Listen(socket string, log *slog.Logger) (*Server, error) {
	os.Remove(socket) // a socket left by a server that was killed
	ln, err := net.Listen("unix", socket)
	if err != nil {
		return nil, err
	}
	if err := restrictSocket(socket); err != nil {
		ln.Close()
		return nil, err
	}
	return &Server{ln: ln, socket: socket, log: log}, nil
}

// Accept runs serve for each connection of this user's, until the server
// closes.
func (s *Server) Accept(serve func(net.Conn)) {
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		if err := feed.PeerIsUser(conn); err != nil {
			s.log.Warn("refused a connection", "error", err)
			conn.Close()
			continue
		}
		s.mu.Lock()
		if s.closing {
			s.mu.Unlock()
			conn.Close()
			return
		}
		s.inflight.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.inflight.Done()
			serve(conn)
		}()
	}
}

// Close takes no connection from here on, and removes the socket.
func (s *Server) Close() {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.ln.Close()
	os.Remove(s.socket)
}

// Finish waits, at most for bound, until every connection taken has been
// answered.
func (s *Server) Finish(bound time.Duration) {
	done := make(chan struct{})
	go func() {
		s.inflight.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(bound):
		s.log.Warn("events still unanswered as the server stops", "waited", bound)
	}
}
