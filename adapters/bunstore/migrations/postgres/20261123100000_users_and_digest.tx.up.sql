-- Users made before roles existed could do everything: they stay admins.
ALTER TABLE api_users ADD COLUMN role TEXT NOT NULL DEFAULT 'admin';
--bun:split
ALTER TABLE api_users ADD COLUMN enabled BOOLEAN NOT NULL DEFAULT TRUE;
--bun:split
-- H(name:realm:key) per Digest algorithm; NULL for keys set before Digest
-- support (those users use Basic until their key is rotated or set at start).
ALTER TABLE api_users ADD COLUMN digest_sha256 TEXT;
--bun:split
ALTER TABLE api_users ADD COLUMN digest_md5 TEXT;
--bun:split
CREATE TABLE auth_secrets (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
--bun:split
-- gen_random_uuid draws from the server's strong random source.
INSERT INTO auth_secrets (name, value)
VALUES ('digest_nonce', replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));
--bun:split
CREATE TABLE digest_nonces (
    nonce     TEXT PRIMARY KEY,
    nc        BIGINT NOT NULL,
    issued_at TIMESTAMPTZ NOT NULL
);
--bun:split
CREATE INDEX digest_nonces_issued_at ON digest_nonces (issued_at);
