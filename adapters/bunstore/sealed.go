package bunstore

import "context"

// HoldsSealedValues tells whether the database keeps any value sealed under
// a secret (what checks an API key, Digest's values, a webhook's signing
// secret), which a secret made anew would not open: such a database needs
// the secret it was sealed with.
func (db *DB) HoldsSealedValues(ctx context.Context) (bool, error) {
	users, err := db.bun.NewSelect().Table("api_users").
		Where("key_check <> '' OR digest_sha256 <> '' OR digest_md5 <> ''").Exists(ctx)
	if err != nil || users {
		return users, err
	}
	return db.bun.NewSelect().Table("webhooks").Where("sealed_secret <> ''").Exists(ctx)
}
