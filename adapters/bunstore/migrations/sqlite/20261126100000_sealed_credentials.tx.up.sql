-- What is kept to check a key is sealed under the service's secret, which
-- the database does not hold: key_check replaces the bare SHA-256 in
-- key_hash, which the service seals at its first start with the secret and
-- then empties. The Digest values kept so far are H(name:realm:key) in the
-- clear, as good as the key for Digest to whoever has a copy of the
-- database, so they go: Digest is off for those users until a new key is
-- issued with it.
ALTER TABLE api_users ADD COLUMN key_check TEXT;
--bun:split
UPDATE api_users SET digest_sha256 = NULL, digest_md5 = NULL;
--bun:split
-- The keys that sign Digest nonces and console forms derive from the
-- secret now; stored, they let a copy of the database make both.
DROP TABLE auth_secrets;
--bun:split
DROP TABLE console_form_key;
