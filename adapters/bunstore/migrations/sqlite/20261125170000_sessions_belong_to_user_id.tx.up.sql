-- A console session belongs to a user's id and to a fingerprint of the
-- credential the user had at sign-in (a SHA-256 over the stored key hashes,
-- never the key), not to a name that another user may be given later.
-- Sessions made before cannot say which user they meant, so they end: their
-- users sign in again.
DROP TABLE console_sessions;
--bun:split

CREATE TABLE console_sessions (
    token_hash   TEXT PRIMARY KEY,
    user_id      INTEGER NOT NULL,
    credential   TEXT NOT NULL,
    csrf_token   TEXT NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL
);
--bun:split

CREATE INDEX console_sessions_last_seen_at ON console_sessions (last_seen_at);
--bun:split

CREATE INDEX console_sessions_created_at ON console_sessions (created_at);
