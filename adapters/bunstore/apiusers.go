package bunstore

import (
	"context"
	"database/sql"
	"errors"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/ports"
)

type apiUserRow struct {
	bun.BaseModel `bun:"table:api_users"`

	ID      int64  `bun:"id,pk,autoincrement"`
	Name    string `bun:"name"`
	KeyHash string `bun:"key_hash"`
}

type apiUsers struct{ s *store }

func (r apiUsers) FindByName(ctx context.Context, name string) (*ports.APIUser, error) {
	row := new(apiUserRow)
	err := r.s.idb.NewSelect().Model(row).Where("name = ?", name).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &ports.APIUser{ID: row.ID, Name: row.Name, KeyHash: row.KeyHash}, nil
}

func (r apiUsers) Count(ctx context.Context) (int, error) {
	n, err := r.s.idb.NewSelect().Table("api_users").Count(ctx)
	return int(n), err
}

func (r apiUsers) Upsert(ctx context.Context, name, keyHash string) error {
	row := &apiUserRow{Name: name, KeyHash: keyHash}
	_, err := r.s.idb.NewInsert().Model(row).ExcludeColumn("id").
		On("CONFLICT (name) DO UPDATE").Set("key_hash = EXCLUDED.key_hash").Exec(ctx)
	return err
}
