package render

import (
	"context"
	"sync"
)

// Behind marks ctx as work done behind the requests (a start's
// prerender): its renders take a runtime only when no request's render
// waits for one, so that a start can render on every runtime and a visitor
// still waits at most for one render to end (docs/ARCHITECTURE.md,
// Rendering). The mark survives context.WithoutCancel.
func Behind(ctx context.Context) context.Context {
	return context.WithValue(ctx, behindKey{}, true)
}

type behindKey struct{}

func isBehind(ctx context.Context) bool {
	b, _ := ctx.Value(behindKey{}).(bool)
	return b
}

// runtimePool holds an engine's runtimes (nil for one not started yet, or
// let go) and hands them out first to the renders of requests, then, in
// the order they asked, to the renders behind them.
type runtimePool struct {
	mu    sync.Mutex
	size  int
	idle  []*runtime
	front []chan *runtime // requests' renders waiting, oldest first
	back  []chan *runtime // renders behind, waiting, oldest first
}

func newRuntimePool(size int) *runtimePool {
	return &runtimePool{size: size, idle: make([]*runtime, 0, size)}
}

// get takes a runtime (nil: start one) once one is free and no render
// before it in line waits, until ctx ends.
func (p *runtimePool) get(ctx context.Context) (*runtime, error) {
	behind := isBehind(ctx)
	p.mu.Lock()
	if len(p.idle) > 0 && len(p.front) == 0 && (!behind || len(p.back) == 0) {
		rt := p.idle[len(p.idle)-1]
		p.idle = p.idle[:len(p.idle)-1]
		p.mu.Unlock()
		return rt, nil
	}
	handed := make(chan *runtime, 1)
	if behind {
		p.back = append(p.back, handed)
	} else {
		p.front = append(p.front, handed)
	}
	p.mu.Unlock()
	select {
	case rt := <-handed:
		return rt, nil
	case <-ctx.Done():
		p.mu.Lock()
		removed := p.remove(&p.front, handed) || p.remove(&p.back, handed)
		p.mu.Unlock()
		if !removed { // handed over as ctx ended: it goes to the next
			p.put(<-handed)
		}
		return nil, ctx.Err()
	}
}

func (p *runtimePool) remove(line *[]chan *runtime, c chan *runtime) bool {
	for i, w := range *line {
		if w == c {
			*line = append((*line)[:i], (*line)[i+1:]...)
			return true
		}
	}
	return false
}

// put gives back a runtime taken with get (nil: let go): to the oldest
// request waiting, else to the oldest render behind, else to the idle.
func (p *runtimePool) put(rt *runtime) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, line := range []*[]chan *runtime{&p.front, &p.back} {
		if len(*line) > 0 {
			next := (*line)[0]
			*line = (*line)[1:]
			next <- rt
			return
		}
	}
	p.idle = append(p.idle, rt)
}

// eachIdle takes every idle runtime at once, for f to change, and gives
// back what f returns for each (Prepare, Release).
func (p *runtimePool) eachIdle(f func(*runtime) (*runtime, error)) error {
	p.mu.Lock()
	taken := p.idle
	p.idle = make([]*runtime, 0, p.size)
	p.mu.Unlock()
	var first error
	for _, rt := range taken {
		next, err := f(rt)
		if err != nil && first == nil {
			first = err
		}
		p.put(next)
	}
	return first
}
