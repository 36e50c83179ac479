package bootstrap

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"go.uber.org/fx"
	"go.uber.org/fx/fxevent"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/shopstock/inventory/adapters/bunstore"
	"github.com/shopstock/inventory/adapters/console"
	httpapi "github.com/shopstock/inventory/adapters/http"
	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/ports"
)

// systemClock is the real time, in UTC.
type systemClock struct{}

func (systemClock) Now() time.Time { return time.Now().UTC() }

// Options assembles the whole service for the given configuration.
func Options(c Config) fx.Option {
	return fx.Options(
		fx.Supply(c),
		fx.Provide(
			NewLogger,
			newDatabase,
			fx.Annotate(func(db *bunstore.DB) *bunstore.DB { return db }, fx.As(new(ports.UnitOfWork))),
			fx.Annotate(func() systemClock { return systemClock{} }, fx.As(new(ports.Clock))),
			fx.Annotate(newSecrets, fx.As(new(ports.Secrets))),
			application.New,
			newRegistry,
			newHandler,
			newServer,
			newMailer,
		),
		// fx's own events (every constructor, hook and invocation) are for
		// debugging the wiring: a plain start shows only the lines below.
		// A failed start is told once, in plain words, by the command
		// (StartError); fx's account of it, with its wiring and stack, is
		// for debugging too.
		fx.WithLogger(func(l *zap.Logger) fxevent.Logger {
			fl := &fxevent.ZapLogger{Logger: l.Named("fx")}
			fl.UseLogLevel(zapcore.DebugLevel)
			fl.UseErrorLevel(zapcore.DebugLevel)
			return fl
		}),
		fx.Invoke(runCredentialSealing, ensureAPIUser, func(*http.Server) {}),
		fx.Invoke(runMailDispatcher, runIdempotencyPurge, runLotExpiry, runProfiler),
		fx.Invoke(runWebhookDispatcher, runRetentionPurges, registerQueueMetrics),
		fx.Invoke(runRowCountFold),
		fx.Invoke(registerReplicaMetrics),
	)
}

// migrationTimeout bounds the migration step. It runs while fx builds the
// service, before any start hook, so fx's start timeout (15 s) does not cut
// a long migration short; a killed one is rolled back and run again.
const migrationTimeout = time.Hour

func newDatabase(lc fx.Lifecycle, c Config, log *zap.Logger) (*bunstore.DB, error) {
	log.Info("starting inventory", zap.String("version", version()))
	db, err := bunstore.Open(c.DatabaseURL)
	if err != nil {
		return nil, bunstore.Explain(err, c.DatabaseURL)
	}
	ctx, cancel := context.WithTimeout(context.Background(), migrationTimeout)
	defer cancel()
	if err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, bunstore.Explain(err, c.DatabaseURL)
	}
	kind := "sqlite"
	if db.Postgres() {
		kind = "postgres"
	}
	if len(c.ReplicaURLs) > 0 {
		if err := db.UseReplicas(c.ReplicaURLs, c.ReplicaMaxLag); err != nil {
			db.Close()
			return nil, fmt.Errorf("INVENTORY_DATABASE_REPLICA_URL: %w", err)
		}
		log.Info("reading from replicas", zap.Int("replicas", len(c.ReplicaURLs)), zap.Duration("max_lag", c.ReplicaMaxLag))
	}
	log.Info("database ready", zap.String("database", kind))
	lc.Append(fx.Hook{OnStop: func(context.Context) error { return db.Close() }})
	return db, nil
}

// GeneratedKeyFile is where the first start puts the admin key it makes
// up, in the working directory: a file only its owner may read. Logs are
// shipped, kept and read by many, so the key is in none; the log names the
// file.
const GeneratedKeyFile = "inventory-generated-api-key"

// ensureAPIUser runs at start, after the migrations (fx starts hooks in the
// order the constructors ran, and this needs the database).
func ensureAPIUser(lc fx.Lifecycle, app *application.App, c Config, log *zap.Logger) {
	lc.Append(fx.Hook{OnStart: func(ctx context.Context) error {
		ensured, err := app.EnsureAPIUser(application.WithPrincipal(ctx, application.System), c.APIUser, c.APIKey)
		if err != nil {
			return fmt.Errorf("ensure API user: %w", err)
		}
		if len(ensured.Differs) > 0 {
			log.Warn("the configured API user exists and differs from the configuration; it is left as it is "+
				"(INVENTORY_API_KEY only creates the user): to give it a key, use inventory users rotate, or the API",
				zap.String("user", c.APIUser), zap.Strings("differs", ensured.Differs))
		}
		key := ensured.GeneratedKey
		if key == "" {
			return nil
		}
		path, err := writePrivateFile(GeneratedKeyFile, key+"\n")
		if err != nil {
			return fmt.Errorf("created API user %q with a random key but could not write the key to a file (%w); "+
				"give it a key with: inventory users rotate %s", c.APIUser, err, c.APIUser)
		}
		log.Warn("created API user with a random key; it is in the key file, readable by its owner only, and in no log",
			zap.String("user", c.APIUser), zap.String("key_file", path))
		return nil
	}})
}

// writePrivateFile replaces the file at name with one of mode 0600 holding
// content, and tells its absolute path. The content is written to a new file
// first and renamed into place, so that an existing file's looser mode is
// never kept and no reader sees half of it.
func writePrivateFile(name, content string) (string, error) {
	path, err := filepath.Abs(name)
	if err != nil {
		return "", err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*") // mode 0600
	if err != nil {
		return "", err
	}
	_, err = f.WriteString(content)
	if closeErr := f.Close(); err == nil {
		err = closeErr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		_ = os.Remove(f.Name())
		return "", err
	}
	return path, nil
}

func newRegistry(db *bunstore.DB) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	// go_sql_* metrics of the connection pool: open, in use, idle, waits.
	reg.MustRegister(collectors.NewDBStatsCollector(db.Bun().DB, "inventory"))
	return reg
}

func newHandler(app *application.App, log *zap.Logger, c Config, db *bunstore.DB, reg *prometheus.Registry) (*httpapi.Handler, error) {
	h, err := httpapi.NewHandler(app, log, httpapi.Config{
		BaseURL: c.BaseURL, RequestTimeout: c.RequestTimeout, MaxInFlight: c.MaxInFlight, TrustedProxies: c.TrustedProxies,
	}, db.Ping, reg)
	if err != nil {
		return nil, err
	}
	// The console is served by the same server, inside the API handler's
	// logging, metrics and limits, with its notion of https and its
	// failed-attempt limits; the form key is shared by every instance.
	formKey, err := app.ConsoleFormKey(context.Background())
	if err != nil {
		return nil, fmt.Errorf("console form key: %w", err)
	}
	con, err := console.New(app, log.Named("console"), console.Config{HTTPS: h.IsHTTPS, Guard: h, FormKey: formKey})
	if err != nil {
		return nil, err
	}
	h.Mount(console.Prefix, con)
	return h, nil
}

// listenError says why the address of variable cannot be listened on.
func listenError(variable, addr string, err error) error {
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("%s: %s is in use by another process; stop it or choose another address", variable, addr)
	}
	if errors.Is(err, syscall.EACCES) {
		return fmt.Errorf("%s: no permission to listen on %s; choose a port above 1023", variable, addr)
	}
	return fmt.Errorf("%s: cannot listen on %s: %v", variable, addr, err)
}

// HTTPServer is the server the service runs, with its connection limits:
// headers within 10 s and 64 KiB, the whole request within 60 s,
// idle keep-alive connections closed after 120 s.
func HTTPServer(addr string, h http.Handler) *http.Server {
	return &http.Server{
		Addr:              addr,
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       60 * time.Second,
		IdleTimeout:       120 * time.Second,
		// net/http reads some kilobytes beyond MaxHeaderBytes before it
		// answers 431 itself; the handler holds the exact limit.
		MaxHeaderBytes: httpapi.MaxHeaderBytes,
	}
}

// boundListener is the API's address, bound by the command before anything
// else starts, so that an address in use stops the start at once and
// alone; without one the server binds INVENTORY_HTTP_ADDR when it starts.
type boundListener struct{ net.Listener }

type serverParams struct {
	fx.In
	Lifecycle fx.Lifecycle
	Config    Config
	Handler   *httpapi.Handler
	Log       *zap.Logger
	Bound     boundListener `optional:"true"`
}

func newServer(p serverParams) *http.Server {
	lc, c, h, log := p.Lifecycle, p.Config, p.Handler, p.Log
	srv := HTTPServer(c.HTTPAddr, h)
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			ln := p.Bound.Listener
			if ln == nil {
				var err error
				if ln, err = net.Listen("tcp", c.HTTPAddr); err != nil {
					return listenError("INVENTORY_HTTP_ADDR", c.HTTPAddr, err)
				}
			}
			log.Info("listening", zap.String("addr", ln.Addr().String()))
			go func() {
				if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
					log.Error("http server stopped", zap.Error(err))
				}
			}()
			return nil
		},
		// Shutdown drains in-flight requests within fx's stop timeout.
		OnStop: func(ctx context.Context) error { return srv.Shutdown(ctx) },
	})
	return srv
}
