package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/ports"
)

// replicaSet is the hot standbys that reads marked ports.ReadFromReplica
// may go to. Each has a watcher that measures, every checkEvery, how far
// its replay is behind the primary; a replica that is unreachable, not in
// recovery, or more than maxLag behind is not used until a check finds it
// well again.
type replicaSet struct {
	list       []*replica
	next       atomic.Uint64
	maxLag     time.Duration
	checkEvery time.Duration
	stop       context.CancelFunc
	watchers   sync.WaitGroup
}

type replica struct {
	name   string
	bun    *bun.DB
	usable atomic.Bool
	// replayed is the WAL position the last check found replayed.
	replayed atomic.Uint64
	// lag is the last check's lag, -1 when the check failed.
	lag   atomic.Int64
	reads atomic.Uint64
}

// ErrReplicasNeedPostgres refuses replicas on SQLite, which has none.
var ErrReplicasNeedPostgres = errors.New("replicas are PostgreSQL hot standbys; the database is SQLite")

// UseReplicas sends the reads that ctx marks with ports.ReadFromReplica to
// the hot standbys at these URLs, as long as one is at most maxLag behind
// the primary and has replayed the position the read asks for; every other
// read, and every read a replica fails, goes to the primary. It opens their
// pools at once and checks each every checkEvery (a tenth of maxLag, between
// 50 ms and 500 ms) until Close.
func (db *DB) UseReplicas(urls []string, maxLag time.Duration) error {
	if !db.Postgres() {
		return ErrReplicasNeedPostgres
	}
	set := &replicaSet{maxLag: maxLag, checkEvery: min(max(maxLag/10, 50*time.Millisecond), 500*time.Millisecond)}
	for _, u := range urls {
		pool, err := openPostgresPool(u, func(c *pgx.ConnConfig) {
			// A replica that does not answer is left for the primary soon.
			if c.ConnectTimeout == 0 || c.ConnectTimeout > 2*time.Second {
				c.ConnectTimeout = 2 * time.Second
			}
		})
		if err != nil {
			set.close()
			return fmt.Errorf("replica %s: %w", redact(u), err)
		}
		host, _, database := postgresTarget(u)
		r := &replica{name: host + "/" + database, bun: pool}
		r.lag.Store(-1)
		set.list = append(set.list, r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	set.stop = cancel
	for _, r := range set.list {
		set.watchers.Add(1)
		go func() {
			defer set.watchers.Done()
			set.watch(ctx, db.bun, r)
		}()
	}
	db.replicas = set
	return nil
}

func (set *replicaSet) close() {
	if set.stop != nil {
		set.stop()
	}
	set.watchers.Wait()
	for _, r := range set.list {
		r.bun.Close()
	}
}

// pick is a usable replica that has replayed what ctx's read needs, taken
// in turn; nil when the read is to go to the primary.
func (set *replicaSet) pick(ctx context.Context) *replica {
	if set == nil {
		return nil
	}
	after, ok := ports.ReplicaReadAfter(ctx)
	if !ok {
		return nil
	}
	start := set.next.Add(1)
	for i := range uint64(len(set.list)) {
		r := set.list[(start+i)%uint64(len(set.list))]
		if r.usable.Load() && ports.Position(r.replayed.Load()) >= after {
			return r
		}
	}
	return nil
}

// failed tells whether a read the replica ran must run again on the
// primary: it failed for a reason of the replica's (unreachable, a query
// cancelled by a conflict with recovery, a schema not replayed yet) rather
// than by the service's rules or because the request ended. An unreachable
// replica is left alone until its watcher finds it well.
func (r *replica) failed(ctx context.Context, err error) bool {
	if err == nil || ctx.Err() != nil {
		return false
	}
	if _, ok := errs.As(err); ok && errs.KindOf(err) != errs.Unavailable {
		return false
	}
	if isUnavailable(err) {
		r.usable.Store(false)
	}
	return true
}

// behind is a primary's WAL position and when it was read.
type behind struct {
	at       time.Time
	position ports.Position
}

// watch measures the replica's lag as the age of the oldest position the
// primary had reached that the replica has not replayed yet: each check
// notes the primary's position, then reads the replica's replay position,
// and forgets the positions it passed. An idle pair is 0 behind however
// long ago the last commit was (a lag from pg_last_xact_replay_timestamp
// would grow), and a paused or cut-off replica falls behind from the first
// commit it misses.
func (set *replicaSet) watch(ctx context.Context, primary *bun.DB, r *replica) {
	// The positions kept span four times maxLag, so whether the replica
	// is more than maxLag behind is told right however far behind it is.
	keep := int(4*set.maxLag/set.checkEvery) + 16
	var pending []behind
	tick := time.NewTicker(set.checkEvery)
	defer tick.Stop()
	for {
		pending = r.check(ctx, primary, pending, set.maxLag, keep)
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (r *replica) check(ctx context.Context, primary *bun.DB, pending []behind, maxLag time.Duration, keep int) []behind {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	var text string
	if err := primary.QueryRowContext(ctx, "SELECT pg_current_wal_lsn()::text").Scan(&text); err == nil {
		p, err := ports.ParsePosition(text)
		if err == nil && (len(pending) == 0 || p > pending[len(pending)-1].position) {
			pending = append(pending, behind{at: time.Now(), position: p})
		}
	}
	if len(pending) > keep {
		pending = append(pending[:1], pending[2:]...)
	}
	var replayed sql.NullString
	err := r.bun.QueryRowContext(ctx, "SELECT pg_last_wal_replay_lsn()::text").Scan(&replayed)
	at, perr := ports.ParsePosition(replayed.String)
	if err != nil || !replayed.Valid || perr != nil {
		// Unreachable, or no standby (not in recovery).
		r.usable.Store(false)
		r.lag.Store(-1)
		return pending
	}
	r.replayed.Store(uint64(at))
	for len(pending) > 0 && pending[0].position <= at {
		pending = pending[1:]
	}
	lag := time.Duration(0)
	if len(pending) > 0 {
		lag = time.Since(pending[0].at)
	}
	r.lag.Store(int64(lag))
	r.usable.Store(lag <= maxLag)
	return pending
}

// ReplicaStats is what a replica served and how far behind it is.
type ReplicaStats struct {
	// Name is the replica's host:port/database.
	Name string
	// Usable tells whether reads go to it now.
	Usable bool
	// Lag is how far its replay was behind the primary at the last check,
	// -1 when the check failed.
	Lag   time.Duration
	Reads uint64
}

// ReadStats are the reads served by the primary (everything not sent to
// a replica, and the reads a replica failed) and by each replica.
func (db *DB) ReadStats() (primary uint64, replicas []ReplicaStats) {
	if db.replicas != nil {
		for _, r := range db.replicas.list {
			replicas = append(replicas, ReplicaStats{Name: r.name, Usable: r.usable.Load(),
				Lag: time.Duration(r.lag.Load()), Reads: r.reads.Load()})
		}
	}
	return db.primaryReads.Load(), replicas
}
