package loadgen

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"

	"github.com/valyala/fasthttp"
)

// errKind classifies a failed request.
type errKind uint8

const (
	errNone errKind = iota
	errTimeout
	errConnect
	errReset
	errStatus
	errProtocol
	errOther
	numErrKinds
)

var errKindNames = [numErrKinds]string{"", "timeout", "connect", "reset", "status", "protocol", "other"}

func (k errKind) String() string { return errKindNames[k] }

func isReset(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// classify maps err to a kind: timeouts and resets are recognised first,
// then def (connect for dialing, protocol for what fasthttp rejected).
func classify(err error, def errKind) errKind {
	var ne net.Error
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, fasthttp.ErrTimeout),
		errors.As(err, &ne) && ne.Timeout():
		return errTimeout
	case def == errConnect:
		return errConnect
	case isReset(err):
		return errReset
	}
	return def
}
