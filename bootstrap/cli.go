package bootstrap

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime/debug"
	"strings"
	"text/tabwriter"
	"time"

	"go.uber.org/dig"
	"go.uber.org/fx"
	"go.uber.org/zap"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/ports"
)

// Exit statuses of the command.
const (
	ExitOK      = 0
	ExitFailure = 1 // configuration, database, or a change the service refused
	ExitUsage   = 2 // the command line itself is wrong
)

// Usage is the command's help text.
const Usage = `Usage:
  inventory [serve]                     run the service (the default)
  inventory migrate                     bring the database schema up to date
  inventory users add NAME --role ROLE [--digest]
                                        add an API user; ROLE is admin, operator or reader;
                                        --digest lets it use HTTP Digest beside Basic
  inventory users list                  list the API users
  inventory users rotate NAME [--digest]
                                        give the user a new key (the old one fails at once);
                                        --digest also turns HTTP Digest on
  inventory users remove NAME           remove the user
  inventory help                        show this text

add and rotate print the new key alone on the last line of standard output;
it is shown only then. The last enabled admin cannot be removed.
Configuration comes from the same INVENTORY_* environment variables as the
service (INVENTORY_DATABASE_URL selects the database).

Exit status: 0 success, 1 failure (configuration, database, or a change the
service refused, such as a taken name or the last admin), 2 usage error.
`

type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// Main runs the command line: args without the program name. It returns the
// exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && (args[0] == "help" || args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(stdout, Usage)
		return ExitOK
	}
	run, err := command(args)
	if err != nil {
		fmt.Fprintf(stderr, "inventory: %v\n\n%s", err, Usage)
		return ExitUsage
	}
	cfg, err := ConfigFromEnv()
	if err != nil {
		fmt.Fprintln(stderr, "inventory:", err)
		return ExitFailure
	}
	if err := run(cfg, stdout); err != nil {
		// One line, whatever a driver's message held.
		fmt.Fprintln(stderr, "inventory:", strings.Join(strings.Fields(err.Error()), " "))
		return ExitFailure
	}
	return ExitOK
}

// command parses the command line into what to run.
func command(args []string) (func(Config, io.Writer) error, error) {
	if len(args) == 0 || args[0] == "serve" {
		if len(args) > 1 {
			return nil, usageError{"serve takes no arguments"}
		}
		return serve, nil
	}
	switch args[0] {
	case "migrate":
		if len(args) > 1 {
			return nil, usageError{"migrate takes no arguments"}
		}
		return func(c Config, out io.Writer) error {
			return withApp(c, func(context.Context, *application.App) error {
				fmt.Fprintln(out, "the database schema is up to date")
				return nil
			})
		}, nil
	case "users":
		return usersCommand(args[1:])
	}
	return nil, usageError{fmt.Sprintf("unknown command %q", args[0])}
}

func usersCommand(args []string) (func(Config, io.Writer) error, error) {
	if len(args) == 0 {
		return nil, usageError{"users needs a subcommand: add, list, rotate or remove"}
	}
	sub, rest := args[0], args[1:]
	var names []string
	role := ""
	digest := false
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		switch {
		case a == "--digest" || a == "-digest":
			digest = true
		case a == "--role" || a == "-role":
			if i+1 >= len(rest) {
				return nil, usageError{"--role needs a value"}
			}
			role = rest[i+1]
			i++
		case strings.HasPrefix(a, "--role="):
			role = strings.TrimPrefix(a, "--role=")
		case strings.HasPrefix(a, "-"):
			return nil, usageError{fmt.Sprintf("unknown flag %q", a)}
		default:
			names = append(names, a)
		}
	}
	if role != "" && sub != "add" {
		return nil, usageError{"only users add takes --role"}
	}
	if digest && sub != "add" && sub != "rotate" {
		return nil, usageError{"only users add and users rotate take --digest"}
	}
	wantNames := 1
	if sub == "list" {
		wantNames = 0
	}
	switch sub {
	case "add", "list", "rotate", "remove":
	default:
		return nil, usageError{fmt.Sprintf("unknown users subcommand %q", sub)}
	}
	if len(names) != wantNames {
		if wantNames == 0 {
			return nil, usageError{"users list takes no arguments"}
		}
		return nil, usageError{fmt.Sprintf("users %s needs exactly one user name", sub)}
	}
	switch sub {
	case "add":
		r, err := user.ParseRole(role)
		if role == "" {
			return nil, usageError{"users add needs --role admin|operator|reader"}
		}
		if err != nil {
			return nil, usageError{fmt.Sprintf("unknown role %q: want admin, operator or reader", role)}
		}
		return func(c Config, out io.Writer) error {
			return withApp(c, func(ctx context.Context, app *application.App) error {
				_, key, err := app.CreateUser(ctx, names[0], r, digest)
				if err != nil {
					return err
				}
				with := ""
				if digest {
					with = " with Digest"
				}
				fmt.Fprintf(out, "added user %q as %s%s; its key, shown only now:\n%s\n", names[0], r, with, key)
				return nil
			})
		}, nil
	case "list":
		return func(c Config, out io.Writer) error {
			return withApp(c, func(ctx context.Context, app *application.App) error {
				return listUsers(ctx, app, out)
			})
		}, nil
	case "rotate":
		return func(c Config, out io.Writer) error {
			return withApp(c, func(ctx context.Context, app *application.App) error {
				u, err := app.UserByName(ctx, names[0])
				if err != nil {
					return err
				}
				var key string
				if digest && !u.Digest() {
					on := true
					key, err = app.ChangeUser(ctx, u.ID(), nil, nil, &on)
				} else {
					key, err = app.RotateUserKey(ctx, u.ID())
				}
				if err != nil {
					return err
				}
				fmt.Fprintf(out, "rotated the key of user %q; the new key, shown only now:\n%s\n", names[0], key)
				return nil
			})
		}, nil
	default: // remove
		return func(c Config, out io.Writer) error {
			return withApp(c, func(ctx context.Context, app *application.App) error {
				u, err := app.UserByName(ctx, names[0])
				if err != nil {
					return err
				}
				if err := app.DeleteUser(ctx, u.ID()); err != nil {
					return err
				}
				fmt.Fprintf(out, "removed user %q\n", names[0])
				return nil
			})
		}, nil
	}
}

func listUsers(ctx context.Context, app *application.App, out io.Writer) error {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tROLE\tENABLED\tDIGEST")
	for start := 0; ; start += 1000 {
		page, err := app.Users(ctx, ports.ListQuery{Start: start, Limit: 1000})
		if err != nil {
			return err
		}
		for _, u := range page.Items {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%v\t%v\n", u.ID(), u.Name(), u.Role(), u.Enabled(), u.Digest())
		}
		if len(page.Items) == 0 || start+len(page.Items) >= page.Total {
			break
		}
	}
	return tw.Flush()
}

// withApp opens and migrates the configured database and runs fn on the use
// cases, as the service would.
func withApp(c Config, fn func(context.Context, *application.App) error) (err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	log := zap.NewNop()
	if l, err := NewLogger(c); err == nil {
		log = l
	}
	db, err := bunstore.Open(c.DatabaseURL)
	if err != nil {
		return bunstore.Explain(err, c.DatabaseURL)
	}
	defer func() { err = errors.Join(err, db.Close()) }()
	if err := db.Migrate(ctx); err != nil {
		return bunstore.Explain(err, c.DatabaseURL)
	}
	secrets, err := newSecrets(c, log, db)
	if err != nil {
		return err
	}
	app := application.New(db, systemClock{}, secrets)
	if err := sealStoredCredentials(ctx, app, log); err != nil {
		return err
	}
	// Only whoever runs the machine can run the command line: it acts as
	// the system.
	return fn(application.WithPrincipal(ctx, application.System), app)
}

// serve runs the service until SIGINT or SIGTERM. fx stops the hooks in
// reverse order: the HTTP server drains before the database closes. A
// failed start returns its root cause, which Main prints on one line.
func serve(c Config, _ io.Writer) error {
	collectLess(os.Getenv)
	ln, err := net.Listen("tcp", c.HTTPAddr)
	if err != nil {
		return listenError("INVENTORY_HTTP_ADDR", c.HTTPAddr, err)
	}
	app := fx.New(Options(c), fx.Supply(boundListener{ln}), fx.StopTimeout(30*time.Second))
	if err := app.Err(); err != nil {
		ln.Close()
		return StartError(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), app.StartTimeout())
	defer cancel()
	if err := app.Start(ctx); err != nil {
		ln.Close() // unless the server took it over, which closes it on stop
		return StartError(err)
	}
	<-app.Wait()
	stopCtx, stopCancel := context.WithTimeout(context.Background(), app.StopTimeout())
	defer stopCancel()
	return app.Stop(stopCtx)
}

// serveGCPercent is how much the heap grows past what the last collection
// kept before the garbage collector runs again, for a service whose
// environment does not set GOGC (Go's own default is 100).
const serveGCPercent = 400

// collectLess makes the garbage collector run a quarter as often as Go's
// default, unless GOGC says otherwise: a 1000-operation batch allocates
// many times the live heap, and at the default the collector's marking
// and sweeping took about a third of the service's CPU (OutsideBatch on
// PostgreSQL: 5 runs each, 1 client 27.5 against 29.2 ms median, 4 clients
// 0.68-0.74 against 0.57-0.67 of the floor's throughput). The heap may
// grow to five times what a collection keeps instead of twice.
func collectLess(getenv func(string) string) {
	if getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
}

// StartError is the cause of a failed start without fx's and dig's account
// of the wiring around it: what the service's own code said.
func StartError(err error) error {
	return dig.RootCause(err)
}
