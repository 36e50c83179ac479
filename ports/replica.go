package ports

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Position is a point in the primary database's history of commits (on
// PostgreSQL its WAL position): a replica that has replayed it shows every
// transaction committed before it was taken. Positions only grow; 0 is
// before everything.
type Position uint64

// String spells the position as PostgreSQL does, "16/B374D848".
func (p Position) String() string { return fmt.Sprintf("%X/%X", uint64(p)>>32, uint32(p)) }

// ParsePosition reads a position as String spells it.
func ParsePosition(s string) (Position, error) {
	hi, lo, ok := strings.Cut(s, "/")
	h, err1 := strconv.ParseUint(hi, 16, 32)
	l, err2 := strconv.ParseUint(lo, 16, 32)
	if !ok || err1 != nil || err2 != nil {
		return 0, fmt.Errorf("want a position as a write's answer gave it, such as 0/16B3748, got %q", s)
	}
	return Position(h<<32 | l), nil
}

type replicaReadKey struct{}

type committedKey struct{}

// ReadFromReplica marks ctx's reads (UnitOfWork.Read) as deciding no write,
// so that they may be served by a replica of the database that has replayed
// at least after; without the mark, and inside Write always, they read the
// primary. Only an adapter that knows the read decides nothing sets it: a
// page or a GET of the API, never a check a write depends on.
func ReadFromReplica(ctx context.Context, after Position) context.Context {
	return context.WithValue(ctx, replicaReadKey{}, after)
}

// ReplicaReadAfter is the position ReadFromReplica marked ctx with; ok is
// false when its reads must go to the primary.
func ReplicaReadAfter(ctx context.Context) (after Position, ok bool) {
	after, ok = ctx.Value(replicaReadKey{}).(Position)
	return after, ok
}

// WhenCommitted asks the unit of work to hand each write of ctx that
// commits its position after the commit, to be given back to
// ReadFromReplica by whoever must read that write.
func WhenCommitted(ctx context.Context, note func(Position)) context.Context {
	return context.WithValue(ctx, committedKey{}, note)
}

// CommittedNote is the function WhenCommitted put on ctx, nil when none.
func CommittedNote(ctx context.Context) func(Position) {
	note, _ := ctx.Value(committedKey{}).(func(Position))
	return note
}
