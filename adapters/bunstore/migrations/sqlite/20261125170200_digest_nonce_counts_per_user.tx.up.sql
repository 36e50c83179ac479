-- Digest nonce counts belong to a nonce and the user who sent them: a
-- client may use a nonce it received as another user, and a count one user
-- used must not refuse another's. The counts of the old table cannot be
-- given a user, so the nonce key is renewed with it: every nonce issued
-- before no longer verifies, and its replays fail with it (clients get a
-- fresh challenge).
DROP TABLE digest_nonces;
--bun:split
CREATE TABLE digest_nonce_counts (
    nonce     TEXT NOT NULL,
    user_name TEXT NOT NULL,
    nc        INTEGER NOT NULL,
    issued_at TIMESTAMP NOT NULL,
    PRIMARY KEY (nonce, user_name)
);
--bun:split
CREATE INDEX digest_nonce_counts_issued_at ON digest_nonce_counts (issued_at);
--bun:split
UPDATE auth_secrets SET value = lower(hex(randomblob(32))) WHERE name = 'digest_nonce';
