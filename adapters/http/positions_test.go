package http

import (
	"fmt"
	"testing"

	"github.com/shopstock/inventory/ports"
)

// An instance remembers each writer's last position, the larger one when
// commits come out of order, and forgets the least recent writers rather
// than grow without bound.
func TestWritePositionsKeepTheLastOfEachWriterWithinBounds(t *testing.T) {
	var w writePositions
	w.remember("shop", 200)
	w.remember("shop", 100)
	if got := w.last("shop"); got != 200 {
		t.Errorf("after 200 and then 100: %v, want 200", got)
	}
	if got := w.last("nobody"); got != 0 {
		t.Errorf("a user who never wrote: %v, want 0", got)
	}
	for i := range maxRememberedWriters {
		w.remember(fmt.Sprint("user-", i), ports.Position(i+1))
	}
	if got := w.last("shop"); got != 200 {
		t.Errorf("a writer one generation back: %v, want 200", got)
	}
	for i := range maxRememberedWriters {
		w.remember(fmt.Sprint("other-", i), 1)
	}
	if got := w.last("shop"); got != 0 {
		t.Errorf("a writer two generations back: %v, want it forgotten", got)
	}
	if n := len(w.recent) + len(w.earlier); n > 2*maxRememberedWriters {
		t.Errorf("%d writers remembered, more than %d", n, 2*maxRememberedWriters)
	}
}
