package render

import (
	"sync"
	"sync/atomic"
	"weak"
)

// DefaultHotBytes bounds the bodies a renders' cache keeps in memory
// (HotBodies): the hot pages of a site, in the encodings their visitors
// ask for, whatever the number of pages (docs/ARCHITECTURE.md, Rendering).
const DefaultHotBytes = 16 << 20

// HotBodies keeps in memory the bodies of the renders' cache asked for
// often, so that a hot page is written from memory rather than read from
// its file on each request; what it holds is bounded in bytes
// (docs/ARCHITECTURE.md, Rendering).
//
// A body is kept on its second request (a crawler's walk through every
// page once keeps none of them), and the bodies kept are let go by CLOCK,
// LRU's approximation that costs a hit one atomic load: a body asked for
// since the hand last passed stays for another turn.
//
// Each body belongs to one encoding of one resource (a file's diskBody),
// which points at it: a page rendered again is a new resource with nothing
// kept, so a body kept is only ever served with the header fields it was
// read with, never after its page changed.
type HotBodies struct {
	limit int64

	mu   sync.Mutex
	held int64      // the bytes of ring's bodies
	ring []*hotBody // the bodies held, in the CLOCK's order
	hand int        // the next body the CLOCK looks at
}

// hotBody is one body kept, and the slot of its resource that points at
// it. The resource is held weakly: a resource no page serves any longer
// (a build before an edit under -dev, and what its remake holds) is let go
// by the collector while its body waits for the hand.
type hotBody struct {
	b     []byte // never changed once kept: requests write it as it is
	asked atomic.Bool
	owner weak.Pointer[diskBody]
	slot  int // in owner.slots
}

// hotSlot is one encoding of a resource as the hot bodies know it.
type hotSlot struct {
	kept atomic.Pointer[hotBody]
	// seen: asked for once, not kept yet.
	seen atomic.Bool
}

// NewHotBodies keeps at most limit bytes of bodies (0: none).
func NewHotBodies(limit int64) *HotBodies { return &HotBodies{limit: limit} }

// get returns the body kept in s, or nil.
func (h *HotBodies) get(s *hotSlot) []byte {
	if h == nil {
		return nil
	}
	k := s.kept.Load()
	if k == nil {
		return nil
	}
	if !k.asked.Load() { // a store only once per turn of the hand
		k.asked.Store(true)
	}
	return k.b
}

// asked tells that the body b of d's slot i was read from its file for a
// request: on its second time, a copy of it is kept (b is not kept: its
// buffer goes back to the pool).
func (h *HotBodies) asked(d *diskBody, i int, b []byte) {
	if h == nil || int64(len(b)) > h.limit/8 || len(b) == 0 {
		return // one body may not take the room of many
	}
	s := &d.slots[i]
	if !s.seen.Load() {
		s.seen.Store(true)
		return
	}
	k := &hotBody{b: append([]byte(nil), b...), owner: weak.Make(d), slot: i}
	h.mu.Lock()
	defer h.mu.Unlock()
	if s.kept.Load() != nil {
		return // another request kept it meanwhile
	}
	n := int64(len(k.b))
	for h.held+n > h.limit && len(h.ring) > 0 {
		if h.hand >= len(h.ring) {
			h.hand = 0
		}
		old := h.ring[h.hand]
		if old.asked.Load() {
			old.asked.Store(false) // another turn
			h.hand++
			continue
		}
		// Let it go: the last body of the ring takes its place, and the
		// hand looks at it next. A request that loaded it still writes it
		// whole; the next one reads the file.
		if d := old.owner.Value(); d != nil {
			d.slots[old.slot].kept.Store(nil)
			d.slots[old.slot].seen.Store(false)
		}
		h.held -= int64(len(old.b))
		last := len(h.ring) - 1
		h.ring[h.hand] = h.ring[last]
		h.ring[last] = nil
		h.ring = h.ring[:last]
	}
	h.ring = append(h.ring, k)
	h.held += n
	s.kept.Store(k)
}

// Held returns the bytes of the bodies kept, and how many they are.
func (h *HotBodies) Held() (bytes int64, bodies int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.held, len(h.ring)
}
