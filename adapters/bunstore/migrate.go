package bunstore

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/uptrace/bun"
	"github.com/uptrace/bun/migrate"
)

//go:embed migrations
var migrationFiles embed.FS

// Migrate brings the schema up to date with the migrations embedded for the
// database's dialect.
func (db *DB) Migrate(ctx context.Context) error {
	sub, err := fs.Sub(migrationFiles, db.dialect.migrations())
	if err != nil {
		return err
	}
	return db.MigrateFrom(ctx, sub)
}

// MigrateFrom applies the migrations in fsys (bun's NAME_COMMENT.up.sql
// files) that are not applied yet. Each *.tx.up.sql file runs in one
// transaction and is marked applied inside that same transaction, so a
// migration that fails or is killed halfway leaves nothing behind and is run
// again in full by the next start. On PostgreSQL the whole step, creating
// bun's tables included, runs under an advisory lock.
func (db *DB) MigrateFrom(ctx context.Context, fsys fs.FS) error {
	migrations := migrate.NewMigrations()
	if err := migrations.Discover(fsys); err != nil {
		return err
	}
	// Instances starting together must not apply the same migration twice.
	unlock, err := db.dialect.migrationLock(ctx, db.bun)
	if err != nil {
		return fmt.Errorf("migrate: wait for the migration lock: %w", err)
	}
	defer unlock()
	const table = "bun_migrations"
	migrator := migrate.NewMigrator(db.bun, migrations,
		migrate.WithTableName(table),
		// Marks the migration after it ran, never before; with the hook
		// below that mark is already in the migration's transaction, and
		// bun's own (an upsert) only confirms it.
		migrate.WithMarkAppliedOnSuccess(true),
		migrate.WithUpsert(true),
		migrate.AfterMigration(func(ctx context.Context, conn bun.IConn, m *migrate.Migration) error {
			_, err := conn.ExecContext(ctx,
				"INSERT INTO ? (name, group_id, migrated_at) VALUES (?, ?, CURRENT_TIMESTAMP) ON CONFLICT (name) DO NOTHING",
				bun.Ident(table), m.Name, m.GroupID)
			return err
		}),
	)
	if err := migrator.Init(ctx); err != nil {
		return fmt.Errorf("migrate: create bun's tables: %w", err)
	}
	if _, err := migrator.Migrate(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}
