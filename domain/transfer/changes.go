package transfer

// loadedTransfer is what a transfer was when storage loaded it.
type loadedTransfer struct {
	status    Status
	inTransit map[int64]int
}

// StatusChange is the domain event of a transfer whose status changed:
// the change feed's transfer.statusChanged.
type StatusChange struct {
	TransferID int64
	Number     string
	Status     Status
	Previous   Status
}

// Changes is what the transfer changed since storage loaded it: how its
// InTransit changed per product (nothing for a new transfer, which has
// shipped nothing), and, when its status changed, the event that follows.
// A new transfer has no status event.
func (t *Transfer) Changes() (inTransit map[int64]int, status *StatusChange) {
	var before map[int64]int
	if t.loaded != nil {
		before = t.loaded.inTransit
	}
	if t.loaded != nil && t.loaded.status != t.status {
		status = &StatusChange{TransferID: t.id, Number: t.number, Status: t.status, Previous: t.loaded.status}
	}
	return Difference(before, t.InTransit()), status
}

// Difference is what turns the quantities before into after, per article
// detail; those that did not change are left out.
func Difference(before, after map[int64]int) map[int64]int {
	out := map[int64]int{}
	for id, n := range after {
		if d := n - before[id]; d != 0 {
			out[id] = d
		}
	}
	for id, n := range before {
		if _, ok := after[id]; !ok && n != 0 {
			out[id] = -n
		}
	}
	return out
}

// ApplyInTransit is the products' kept inTransitStock after the changes:
// kept holds what was kept (products missing from it had none), the result
// holds every product the changes concern, 0 for those with nothing on the
// road any more.
func ApplyInTransit(kept, changes map[int64]int) map[int64]int {
	out := make(map[int64]int, len(changes))
	for id, d := range changes {
		out[id] = kept[id] + d
	}
	return out
}
