package bunstore

import "context"

// HoldsSealedValues tells whether the database keeps any value sealed under
// a secret (what checks an API key, Digest's values), which a secret made
// anew would not open: such a database needs the secret it was sealed with.
func (db *DB) HoldsSealedValues(ctx context.Context) (bool, error) {
	return db.bun.NewSelect().Table("api_users").
		Where("key_check <> '' OR digest_sha256 <> '' OR digest_md5 <> ''").Exists(ctx)
}
