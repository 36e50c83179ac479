-- The key that signs the console's sign-in form tokens, made by the first
-- instance that needs it, so that every instance on the database accepts a
-- form another one served. It signs forms only; it opens no session.
CREATE TABLE console_form_key (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL
);
