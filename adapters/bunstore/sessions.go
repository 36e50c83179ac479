package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/domain/session"
	"github.com/shopstock/inventory/ports"
)

type sessionRow struct {
	bun.BaseModel `bun:"table:console_sessions"`

	TokenHash  string    `bun:"token_hash,pk"`
	UserID     int64     `bun:"user_id"`
	Credential string    `bun:"credential"`
	CSRFToken  string    `bun:"csrf_token"`
	CreatedAt  time.Time `bun:"created_at"`
	LastSeenAt time.Time `bun:"last_seen_at"`
}

type sessions struct{ s *store }

func (s *store) Sessions() ports.SessionRepository { return sessions{s} }

func (r sessions) Add(ctx context.Context, v *session.Session) error {
	row := &sessionRow{TokenHash: v.TokenHash(), UserID: v.UserID(), Credential: v.Credential(), CSRFToken: v.CSRFToken(),
		CreatedAt: v.CreatedAt().UTC(), LastSeenAt: v.LastSeen().UTC()}
	_, err := r.s.idb.NewInsert().Model(row).Exec(ctx)
	return err
}

func (r sessions) Get(ctx context.Context, tokenHash string) (*session.Session, error) {
	row := new(sessionRow)
	err := r.s.idb.NewSelect().Model(row).Where("token_hash = ?", tokenHash).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return session.UnmarshalFromDatabase(row.TokenHash, row.UserID, row.Credential, row.CSRFToken,
		row.CreatedAt.UTC(), row.LastSeenAt.UTC()), nil
}

func (r sessions) Touch(ctx context.Context, v *session.Session) error {
	_, err := r.s.idb.NewUpdate().Table("console_sessions").Set("last_seen_at = ?", v.LastSeen().UTC()).
		Where("token_hash = ?", v.TokenHash()).Exec(ctx)
	return err
}

func (r sessions) Delete(ctx context.Context, tokenHash string) error {
	_, err := r.s.idb.NewDelete().Table("console_sessions").Where("token_hash = ?", tokenHash).Exec(ctx)
	return err
}

func (r sessions) PurgeExpired(ctx context.Context, lastUse, signedIn time.Time) (int, error) {
	res, err := r.s.idb.NewDelete().Table("console_sessions").
		Where("last_seen_at < ? OR created_at < ?", lastUse.UTC(), signedIn.UTC()).Exec(ctx)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	return int(n), err
}
