package handlers

import (
	"crypto/rand"
	"sync"

	"github.com/labstack/echo/v4"
)

// Request ids are made in blocks, so that a request costs no allocation:
// one read of crypto/rand and two allocations make idBlockSize ids, each
// as rand.Text makes one (26 characters of the base32 alphabet, 130 random
// bits), and the header values that carry them.
const (
	idBlockSize = 256
	idLen       = 26
	idAlphabet  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567" // rand.Text's
)

// idBlock is a block of ids and of the X-Request-Id values that hold them.
type idBlock struct {
	ids    string              // idBlockSize ids, back to back
	values [idBlockSize]string // one header value of one element per id
	next   int                 // the first id not handed out
}

func newIDBlock() *idBlock {
	raw := make([]byte, idBlockSize*idLen)
	_, _ = rand.Read(raw) // never fails (crypto/rand's documentation)
	for i, c := range raw {
		raw[i] = idAlphabet[c%32]
	}
	return &idBlock{ids: string(raw)}
}

// requestIDs hands out request ids, each once. The blocks are kept in a
// sync.Pool, so that each core takes ids from a block of its own without
// waiting for the others; a block the pool drops is not used again.
type requestIDs struct {
	blocks sync.Pool
}

// header returns the value of an answer's X-Request-Id: the id a trusted
// proxy passed on, or a new one when proxyID is empty. The slice has room
// for nothing more, so that no one can grow it in place: it is shared with
// the block it came from.
func (r *requestIDs) header(proxyID string) []string {
	b, _ := r.blocks.Get().(*idBlock)
	if b == nil || b.next == idBlockSize {
		b = newIDBlock()
	}
	i := b.next
	b.next++
	v := b.values[i : i+1 : i+1]
	if proxyID != "" {
		v[0] = proxyID
	} else {
		v[0] = b.ids[i*idLen : (i+1)*idLen]
	}
	r.blocks.Put(b)
	return v
}

// requestID returns the id assignRequestID gave the request.
func requestID(c echo.Context) string {
	if v := c.Response().Header()[echo.HeaderXRequestID]; len(v) > 0 {
		return v[0]
	}
	return ""
}
