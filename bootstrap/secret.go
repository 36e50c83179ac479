package bootstrap

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/adapters/secretkey"
	"github.com/shopstock/inventory/application"
)

// KeyFileSuffix names the file that holds the secret of an SQLite database
// when INVENTORY_SECRET_KEY is unset: the database's path with this suffix.
const KeyFileSuffix = ".secret-key"

var errNoSecretForPostgres = errors.New("INVENTORY_SECRET_KEY is not set: with PostgreSQL the service needs it " +
	"(at least 32 random bytes written as base64 or hex, e.g. head -c 32 /dev/urandom | base64), " +
	"because what the database keeps to check API keys is sealed with it")

// parseSecretEnv reads a secret variable; unset or empty is nil.
func parseSecretEnv(name string) ([]byte, error) {
	v := os.Getenv(name)
	if v == "" {
		return nil, nil
	}
	b, err := secretkey.Parse(v)
	if err != nil {
		return nil, fmt.Errorf("%s: %v (make one with: head -c 32 /dev/urandom | base64)", name, err)
	}
	return b, nil
}

// newSecrets is the keyring of the configured secret. Without
// INVENTORY_SECRET_KEY, an SQLite database keeps its secret in a key file
// beside it, made at the first start, and an in-memory one gets a random
// secret per process; PostgreSQL has no such place that is not shared with
// the database's copies, so it needs the variable.
//
// A key file is made only for a database that holds no sealed value: one
// that does was copied without its key file, and a new secret would open
// none of its values.
func newSecrets(c Config, log *zap.Logger, db *bunstore.DB) (*secretkey.Keyring, error) {
	secret := c.SecretKey
	if secret == nil {
		path, memory, isSQLite := sqlitePath(c.DatabaseURL)
		switch {
		case !isSQLite:
			return nil, errNoSecretForPostgres
		case path == "":
			return nil, errors.New("INVENTORY_DATABASE_URL: sqlite: needs a path, or :memory: for an in-memory database")
		case memory:
			b, _ := secretkey.Parse(secretkey.Generate())
			secret = b
		default:
			var err error
			sealed := func() (bool, error) { return db.HoldsSealedValues(context.Background()) }
			if secret, err = keyFile(path+KeyFileSuffix, sealed, log); err != nil {
				return nil, err
			}
		}
	}
	return secretkey.New(secret, c.PreviousSecretKey)
}

// sqlitePath tells the file of an SQLite database URL.
func sqlitePath(databaseURL string) (path string, memory, ok bool) {
	if !strings.HasPrefix(databaseURL, "sqlite:") {
		return "", false, false
	}
	path = strings.TrimPrefix(databaseURL, "sqlite:")
	return path, path == ":memory:", true
}

// keyFile reads the secret in the file at path, or makes one there, readable
// by its owner only. It is linked into place only when complete, and never
// over a file another process made meanwhile, whose secret wins.
func keyFile(path string, sealed func() (bool, error), log *zap.Logger) ([]byte, error) {
	read := func() ([]byte, error) {
		info, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		if info.Mode().Perm()&0o077 != 0 {
			return nil, fmt.Errorf("key file %s: readable by others (mode %v); make it readable by its owner only (chmod 600) "+
				"and consider the secret known: rotate it (see INVENTORY_PREVIOUS_SECRET_KEY)", path, info.Mode().Perm())
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		b, err := secretkey.Parse(string(raw))
		if err != nil {
			return nil, fmt.Errorf("key file %s: %v", path, err)
		}
		return b, nil
	}
	b, err := read()
	if !errors.Is(err, fs.ErrNotExist) {
		return b, err
	}
	switch held, err := sealed(); {
	case err != nil:
		return nil, fmt.Errorf("key file %s is missing and the database cannot be read to tell whether it needs one: %w", path, err)
	case held:
		return nil, fmt.Errorf("the key file %s is missing, and the database holds values sealed with the secret it held: "+
			"restore the key file from the backup kept apart from the database (or set INVENTORY_SECRET_KEY to that secret)", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*") // mode 0600
	if err != nil {
		return nil, fmt.Errorf("INVENTORY_SECRET_KEY is not set and the key file cannot be made: %w", err)
	}
	defer os.Remove(f.Name())
	_, err = f.WriteString(secretkey.Generate() + "\n")
	if err == nil {
		err = f.Sync()
	}
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Link(f.Name(), path)
	}
	switch {
	case err == nil:
		log.Warn("made a secret for the database, kept in the key file beside it: back it up apart from the database, "+
			"without it no stored API key can be checked", zap.String("key_file", path))
	case !errors.Is(err, fs.ErrExist):
		return nil, fmt.Errorf("INVENTORY_SECRET_KEY is not set and the key file cannot be made: %w", err)
	}
	return read()
}

// sealStoredCredentials brings what the database keeps to check API keys
// under the secret before anything else runs at start.
func sealStoredCredentials(ctx context.Context, app *application.App, log *zap.Logger) error {
	n, err := app.SealCredentials(application.WithPrincipal(ctx, application.System))
	if err != nil {
		return fmt.Errorf("stored API credentials and webhook secrets: %w; INVENTORY_SECRET_KEY (on SQLite without it, the key file beside the "+
			"database) must be the secret they were sealed with; during a rotation, the old one goes in INVENTORY_PREVIOUS_SECRET_KEY", err)
	}
	if n > 0 {
		log.Info("sealed stored API credentials and webhook secrets under the current secret", zap.Int("changed", n))
	}
	return nil
}

func runCredentialSealing(lc fx.Lifecycle, app *application.App, log *zap.Logger) {
	lc.Append(fx.Hook{OnStart: func(ctx context.Context) error { return sealStoredCredentials(ctx, app, log) }})
}
