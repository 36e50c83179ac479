-- Console sign-in sessions, in the database so that any instance serves
-- them. token_hash is SHA-256 of the cookie's token; the token itself is
-- never stored.
CREATE TABLE console_sessions (
    token_hash   TEXT PRIMARY KEY,
    user_name    TEXT NOT NULL,
    csrf_token   TEXT NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL
);
--bun:split

CREATE INDEX console_sessions_last_seen_at ON console_sessions (last_seen_at);
