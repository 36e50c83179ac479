package application

import (
	"context"
	"fmt"
	"time"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/idempotency"
	"github.com/shopstock/inventory/domain/limit"
	"github.com/shopstock/inventory/ports"
)

// BatchMeta identifies a batch: its idempotency key, the endpoint it was
// sent to, a fingerprint of its body, and the API user who sent it.
type BatchMeta struct {
	Key         string
	Endpoint    string
	Fingerprint string
	User        string
}

// OperationResult is the outcome of one operation; OperationID is the
// operation's `id` as raw JSON, nil when it had none. A failed operation
// names the property its error concerns and the rule it broke (see
// errs.Error), for an interface that shows them its own way.
type OperationResult struct {
	OperationID []byte
	Success     bool
	Message     string
	Property    string
	Code        errs.Code
	// Subject names the ids the failure concerns, for an interface that
	// tells it in its own words.
	Subject errs.Subject
}

// BatchResult is the outcome of a whole batch.
type BatchResult struct {
	Success        bool
	Message        string
	IdempotencyKey string
	CreatedAt      time.Time
	Results        []OperationResult
}

// RenderBatch turns a result into the bytes stored for replay and sent.
type RenderBatch func(BatchResult) ([]byte, error)

// BatchOutcome is the response of a batch, fresh or replayed.
type BatchOutcome struct {
	Body     []byte
	Replayed bool
}

// batchRun executes a batch's operations inside its transaction and returns
// one result per operation, in order, and the writes that store what they
// changed (see idempotent).
type batchRun func(ctx context.Context, s ports.Store, now time.Time) ([]OperationResult, func() error, error)

// runBatch is the one batch engine: it checks the batch as a whole, claims
// the idempotency key, runs the operations, and stores the rendered result,
// all in one transaction, so that a batch happens exactly once or not at all.
func (a *App) runBatch(ctx context.Context, meta BatchMeta, count int, render RenderBatch, run batchRun) (BatchOutcome, error) {
	if _, err := idempotency.ParseKey(meta.Key); err != nil {
		return BatchOutcome{}, err
	}
	if err := limit.CheckBatchSize(count); err != nil {
		return BatchOutcome{}, err
	}
	return a.idempotent(ctx, meta, func(ctx context.Context, s ports.Store, now time.Time) ([]byte, func() error, error) {
		results, writes, err := run(ctx, s, now)
		if err != nil {
			return nil, nil, err
		}
		result := BatchResult{Success: true, IdempotencyKey: meta.Key, CreatedAt: a.clock.Now(), Results: results}
		failed := 0
		for _, r := range results {
			if !r.Success {
				failed++
			}
		}
		if failed > 0 {
			result.Success = false
			result.Message = fmt.Sprintf("%d of %d operations failed", failed, len(results))
		}
		body, err := render(result)
		return body, writes, err
	})
}

// idempotent runs a request under its idempotency key in one transaction:
// it claims the key, runs, and stores the rendered response with it, so
// that the request happens exactly once or not at all. A request that
// fails rolls back and leaves its key unused. The same key with the same
// endpoint and fingerprint replays the stored response; with another, it is
// a conflict. Without a key (meta.Key ""), it only runs.
//
// run returns the response and, unless it wrote them itself, the writes
// that store what it changed: they are the transaction's last, with the
// stored response (Store.Last), so that they go with the events and the
// COMMIT in one round trip while the products are locked.
func (a *App) idempotent(ctx context.Context, meta BatchMeta, run func(ctx context.Context, s ports.Store, now time.Time) ([]byte, func() error, error)) (BatchOutcome, error) {
	var out BatchOutcome
	if meta.Key != "" {
		ctx = withBatchCause(ctx, meta)
	}
	err := a.uow.Write(ctx, func(ctx context.Context, s ports.Store) error {
		out = BatchOutcome{}
		now := a.clock.Now()
		if meta.Key != "" {
			stored, err := s.Idempotency().Claim(ctx, meta.Key, meta.Endpoint, meta.Fingerprint, now)
			if err != nil {
				return err
			}
			if stored != nil {
				if stored.Endpoint != meta.Endpoint || stored.Fingerprint != meta.Fingerprint {
					return errs.Conflictf("idempotency key %q was already used for a different request; use a new key for a new request", meta.Key)
				}
				out = BatchOutcome{Body: stored.Response, Replayed: true}
				return nil
			}
		}
		body, writes, err := run(ctx, s, now)
		if err != nil {
			return err
		}
		out.Body = body
		return s.Last(ctx, func() error {
			if writes != nil {
				if err := writes(); err != nil {
					return err
				}
			}
			if meta.Key == "" {
				return nil
			}
			return s.Idempotency().Complete(ctx, meta.Key, body)
		})
	})
	return out, err
}

// writesItself is a run of idempotent that writes what it changed itself.
func writesItself(run func(ctx context.Context, s ports.Store, now time.Time) ([]byte, error)) func(ctx context.Context, s ports.Store, now time.Time) ([]byte, func() error, error) {
	return func(ctx context.Context, s ports.Store, now time.Time) ([]byte, func() error, error) {
		body, err := run(ctx, s, now)
		return body, nil, err
	}
}

func failed(id []byte, err error) OperationResult {
	r := OperationResult{OperationID: id, Message: err.Error()}
	if e, ok := errs.As(err); ok {
		r.Message, r.Property, r.Code, r.Subject = e.Message, e.Property, e.Code, e.Subject
		if len(e.Fields) == 1 && e.Message == "validation failed" {
			r.Message = e.Fields[0].Property + ": " + e.Fields[0].Message
		}
	}
	return r
}

func succeeded(id []byte) OperationResult {
	return OperationResult{OperationID: id, Success: true}
}
