package bunstore

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5/pgconn"
)

// Explain turns a failure to open or migrate the database at databaseURL
// into one line that says what is wrong and what to do, naming
// INVENTORY_DATABASE_URL where the URL is to blame. An error it does not
// know keeps its own words, on one line.
func Explain(err error, databaseURL string) error {
	if err == nil {
		return nil
	}
	const variable = "INVENTORY_DATABASE_URL"
	if path, ok := strings.CutPrefix(databaseURL, "sqlite:"); ok {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return fmt.Errorf("cannot open the SQLite database %s (%s): %s; make sure its folder exists and is writable",
				path, variable, oneLine(pe.Err.Error()))
		}
		if strings.Contains(err.Error(), "unable to open database file") {
			return fmt.Errorf("cannot open the SQLite database %s (%s); make sure its folder exists and is writable", path, variable)
		}
		return errors.New(oneLine(err.Error()))
	}
	host, user, database := postgresTarget(databaseURL)
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		switch pg.Code {
		case "3D000":
			return fmt.Errorf("the database %q does not exist on %s (%s); create it with createdb %s", database, host, variable, database)
		case "28P01", "28000":
			return fmt.Errorf("PostgreSQL on %s refused user %q (%s): %s; check the user name and password in the URL, and pg_hba.conf",
				host, user, variable, oneLine(pg.Message))
		}
	}
	var ce *pgconn.ConnectError
	var ne net.Error
	var oe *net.OpError
	if errors.As(err, &oe) || errors.As(err, &ne) || errors.As(err, &ce) && !errors.As(err, &pg) {
		return fmt.Errorf("cannot reach PostgreSQL at %s (%s): %s; is it running, and is the address right?",
			host, variable, lastCause(err))
	}
	if strings.HasPrefix(err.Error(), "parse database url") {
		return fmt.Errorf("%s is not a valid PostgreSQL URL: %s", variable, oneLine(err.Error()))
	}
	return errors.New(oneLine(err.Error()))
}

// postgresTarget reads the host:port, user and database of a PostgreSQL
// URL, with libpq's defaults.
func postgresTarget(databaseURL string) (host, user, database string) {
	host, user = "localhost:5432", "postgres"
	u, err := url.Parse(databaseURL)
	if err != nil {
		return host, user, ""
	}
	if u.Host != "" {
		host = u.Host
		if u.Port() == "" {
			host = net.JoinHostPort(u.Hostname(), "5432")
		}
	}
	if u.User != nil && u.User.Username() != "" {
		user = u.User.Username()
	}
	database = strings.TrimPrefix(u.Path, "/")
	if database == "" {
		database = user
	}
	return host, user, database
}

// lastCause is the innermost words of a network error ("connection
// refused", "i/o timeout"), which say more than the layers around them.
func lastCause(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return oneLine(msg)
}

// oneLine folds a message onto one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
