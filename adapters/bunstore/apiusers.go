package bunstore

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/uptrace/bun"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
)

type apiUserRow struct {
	bun.BaseModel `bun:"table:api_users,alias:u"`

	ID   int64  `bun:"id,pk,autoincrement"`
	Name string `bun:"name"`
	// KeyHash is a bare SHA-256 of the key, as kept before there was a
	// secret; empty once sealed into KeyCheck at a start with the secret.
	KeyHash  string         `bun:"key_hash"`
	KeyCheck sql.NullString `bun:"key_check"`
	Role     string         `bun:"role"`
	Enabled  bool           `bun:"enabled"`
	// Sealed H(name:realm:key) per algorithm; NULL: Digest off.
	DigestSHA256 sql.NullString `bun:"digest_sha256"`
	DigestMD5    sql.NullString `bun:"digest_md5"`
}

var userColumns = columns{
	"user.id": "u.id", "user.name": "u.name", "user.role": "u.role", "user.enabled": "u.enabled",
}

func toUserRow(u *user.User) *apiUserRow {
	c := u.Credentials()
	nullable := func(s string) sql.NullString { return sql.NullString{String: s, Valid: s != ""} }
	return &apiUserRow{ID: u.ID(), Name: u.Name(), KeyHash: c.LegacyKeyHash, KeyCheck: nullable(c.Key),
		Role: string(u.Role()), Enabled: u.Enabled(), DigestSHA256: nullable(c.DigestSHA256), DigestMD5: nullable(c.DigestMD5)}
}

func (row *apiUserRow) toDomain() *user.User {
	return user.UnmarshalFromDatabase(row.ID, row.Name, user.Role(row.Role), row.Enabled, user.Credentials{
		Key: row.KeyCheck.String, LegacyKeyHash: row.KeyHash, DigestSHA256: row.DigestSHA256.String, DigestMD5: row.DigestMD5.String,
	})
}

type apiUsers struct{ s *store }

func (r apiUsers) Add(ctx context.Context, u *user.User) error {
	row := toUserRow(u)
	if _, err := r.s.idb.NewInsert().Model(row).ExcludeColumn("id").Returning("id").Exec(ctx, &row.ID); err != nil {
		if isUniqueViolation(err) {
			return nameTaken(u.Name())
		}
		return err
	}
	u.Assign(row.ID)
	return nil
}

func nameTaken(name string) error {
	return errs.InvalidFields(errs.FieldError{Property: "name", Message: "a user named \"" + name + "\" already exists"})
}

func (r apiUsers) Get(ctx context.Context, id int64) (*user.User, error) {
	row := new(apiUserRow)
	if err := r.s.forUpdate(r.s.idb.NewSelect().Model(row).Where("id = ?", id)).Scan(ctx); err != nil {
		return nil, notFound(err, "user %d not found", id)
	}
	return row.toDomain(), nil
}

func (r apiUsers) FindByName(ctx context.Context, name string) (*user.User, error) {
	row := new(apiUserRow)
	err := r.s.forUpdate(r.s.idb.NewSelect().Model(row).Where("name = ?", name)).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return row.toDomain(), nil
}

func (r apiUsers) Save(ctx context.Context, u *user.User) error {
	_, err := r.s.idb.NewUpdate().Model(toUserRow(u)).WherePK().Exec(ctx)
	return err
}

func (r apiUsers) Delete(ctx context.Context, id int64) error {
	_, err := r.s.idb.NewDelete().Model((*apiUserRow)(nil)).Where("id = ?", id).Exec(ctx)
	return err
}

func (r apiUsers) List(ctx context.Context, q ports.ListQuery) (ports.Page[*user.User], error) {
	var rows []apiUserRow
	total, err := page(ctx, r.s.idb, &rows, q, userColumns, ports.UserFields, "u.id",
		func(s *bun.SelectQuery) *bun.SelectQuery { return s })
	out := ports.Page[*user.User]{Items: make([]*user.User, len(rows)), Total: total}
	for i := range rows {
		out.Items[i] = rows[i].toDomain()
	}
	return out, err
}

func (r apiUsers) Count(ctx context.Context) (int, error) {
	n, err := r.s.idb.NewSelect().Table("api_users").Count(ctx)
	return int(n), err
}

func (r apiUsers) EnabledAdmins(ctx context.Context) (int, error) {
	var ids []int64
	q := r.s.idb.NewSelect().Model((*apiUserRow)(nil)).Column("id").
		Where("role = ? AND enabled", string(user.Admin)).OrderExpr("id")
	err := r.s.forUpdate(q).Scan(ctx, &ids)
	return len(ids), err
}

type digestNonces struct{ s *store }

func (s *store) DigestNonces() ports.DigestNonceStore { return digestNonces{s} }

func (r digestNonces) Use(ctx context.Context, nonce, userName string, nc int64, issuedAt time.Time) (bool, error) {
	res, err := r.s.idb.NewRaw(`INSERT INTO digest_nonce_counts (nonce, user_name, nc, issued_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (nonce, user_name) DO UPDATE SET nc = excluded.nc WHERE digest_nonce_counts.nc < excluded.nc`,
		nonce, userName, nc, issuedAt.UTC()).Exec(ctx)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func (r digestNonces) Purge(ctx context.Context, before time.Time) error {
	_, err := r.s.idb.NewDelete().Table("digest_nonce_counts").Where("issued_at < ?", before.UTC()).Exec(ctx)
	return err
}
