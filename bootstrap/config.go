// Package bootstrap reads the configuration and wires the adapters onto the
// ports with fx. It is the only package that knows fx.
package bootstrap

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap/zapcore"

	httpapi "github.com/shopstock/inventory/adapters/http"
	"github.com/shopstock/inventory/domain/user"
)

// Config is the service's configuration, read from the environment.
type Config struct {
	HTTPAddr             string
	DatabaseURL          string
	APIUser              string
	APIKey               string
	SMTPURL              string
	SMTPTLS              string
	SMTPAuth             string
	MailFrom             string
	BaseURL              string
	IdempotencyRetention time.Duration
	MailRetention        time.Duration
	EventRetention       time.Duration
	WebhookAllowPrivate  bool
	LogLevel             string
	LogFormat            string
	RequestTimeout       time.Duration
	MaxInFlight          int
	TrustedProxies       []netip.Prefix
	PprofAddr            string // empty: no profiling listener
	// SecretKey seals what the database keeps to check API keys (nil: a
	// key file beside an SQLite database; PostgreSQL needs it);
	// PreviousSecretKey is the one to re-seal from during a rotation.
	SecretKey         []byte
	PreviousSecretKey []byte
	// ReplicaURLs are the hot standbys that take the reads deciding no
	// write; one more than ReplicaMaxLag behind is not used.
	ReplicaURLs   []string
	ReplicaMaxLag time.Duration
}

// checkDatabaseURL refuses a database URL of a kind the service does not
// speak, before anything is opened.
func checkDatabaseURL(u string) error {
	switch {
	case strings.HasPrefix(u, "postgres://"), strings.HasPrefix(u, "postgresql://"):
		return nil
	case u == "sqlite:":
		return errors.New("INVENTORY_DATABASE_URL: sqlite: needs a path, or :memory: for an in-memory database")
	case strings.HasPrefix(u, "sqlite:"):
		return nil
	}
	scheme, _, _ := strings.Cut(u, ":")
	return fmt.Errorf("INVENTORY_DATABASE_URL: the service speaks PostgreSQL (postgres://user:password@host:5432/database) "+
		"and SQLite (sqlite:PATH), not %q", scheme)
}

// ConfigFromEnv reads the INVENTORY_* variables, with the documented defaults.
func ConfigFromEnv() (Config, error) {
	get := func(name, def string) string {
		if v, ok := os.LookupEnv(name); ok && v != "" {
			return v
		}
		return def
	}
	c := Config{
		HTTPAddr:    get("INVENTORY_HTTP_ADDR", "127.0.0.1:8080"),
		DatabaseURL: get("INVENTORY_DATABASE_URL", "sqlite:inventory.db"),
		APIUser:     get("INVENTORY_API_USER", "admin"),
		APIKey:      get("INVENTORY_API_KEY", ""),
		SMTPURL:     get("INVENTORY_SMTP_URL", ""),
		SMTPTLS:     get("INVENTORY_SMTP_TLS", ""),
		SMTPAuth:    get("INVENTORY_SMTP_AUTH", "auto"),
		MailFrom:    get("INVENTORY_MAIL_FROM", "inventory@localhost"),
		BaseURL:     get("INVENTORY_BASE_URL", ""),
		LogLevel:    get("INVENTORY_LOG_LEVEL", "info"),
		LogFormat:   get("INVENTORY_LOG_FORMAT", "json"),
		PprofAddr:   get("INVENTORY_PPROF_ADDR", ""),
	}
	if err := checkDatabaseURL(c.DatabaseURL); err != nil {
		return c, err
	}
	if _, _, err := net.SplitHostPort(c.HTTPAddr); err != nil {
		return c, fmt.Errorf("INVENTORY_HTTP_ADDR: want host:port such as 127.0.0.1:8080, got %q", c.HTTPAddr)
	}
	if _, err := zapcore.ParseLevel(c.LogLevel); err != nil {
		return c, fmt.Errorf("INVENTORY_LOG_LEVEL: want debug, info, warn or error, got %q", c.LogLevel)
	}
	retention, err := time.ParseDuration(get("INVENTORY_IDEMPOTENCY_RETENTION", "720h"))
	if err != nil || retention <= 0 {
		return c, fmt.Errorf("INVENTORY_IDEMPOTENCY_RETENTION: want a positive Go duration such as 720h, got %q", os.Getenv("INVENTORY_IDEMPOTENCY_RETENTION"))
	}
	c.IdempotencyRetention = retention
	if c.APIKey != "" && len(c.APIKey) < user.MinKeyLength {
		return c, fmt.Errorf("INVENTORY_API_KEY: want at least %d characters, got %d; a short key can be guessed", user.MinKeyLength, len(c.APIKey))
	}
	switch c.SMTPTLS {
	case "", "mandatory", "opportunistic", "none":
	default:
		return c, fmt.Errorf("INVENTORY_SMTP_TLS: want mandatory, opportunistic or none, got %q", c.SMTPTLS)
	}
	switch c.SMTPAuth {
	case "auto", "plain", "login", "cram-md5", "xoauth2":
	default:
		return c, fmt.Errorf("INVENTORY_SMTP_AUTH: want auto, plain, login, cram-md5 or xoauth2, got %q", c.SMTPAuth)
	}
	timeout, err := time.ParseDuration(get("INVENTORY_REQUEST_TIMEOUT", "60s"))
	if err != nil || timeout <= 0 {
		return c, fmt.Errorf("INVENTORY_REQUEST_TIMEOUT: want a positive Go duration such as 60s, got %q", os.Getenv("INVENTORY_REQUEST_TIMEOUT"))
	}
	c.RequestTimeout = timeout
	inFlight, err := strconv.Atoi(get("INVENTORY_MAX_IN_FLIGHT", "256"))
	if err != nil || inFlight <= 0 {
		return c, fmt.Errorf("INVENTORY_MAX_IN_FLIGHT: want a positive integer, got %q", os.Getenv("INVENTORY_MAX_IN_FLIGHT"))
	}
	c.MaxInFlight = inFlight
	if c.TrustedProxies, err = httpapi.ParseTrustedProxies(get("INVENTORY_TRUSTED_PROXIES", "")); err != nil {
		return c, fmt.Errorf("INVENTORY_TRUSTED_PROXIES: want comma-separated CIDRs such as 10.0.0.0/8,::1/128: %v", err)
	}
	for _, d := range []struct {
		name string
		dst  *time.Duration
	}{{"INVENTORY_MAIL_RETENTION", &c.MailRetention}, {"INVENTORY_EVENT_RETENTION", &c.EventRetention}} {
		v, err := time.ParseDuration(get(d.name, "720h"))
		if err != nil || v <= 0 {
			return c, fmt.Errorf("%s: want a positive Go duration such as 720h, got %q", d.name, os.Getenv(d.name))
		}
		*d.dst = v
	}
	switch v := get("INVENTORY_WEBHOOK_ALLOW_PRIVATE", "false"); v {
	case "true", "1":
		c.WebhookAllowPrivate = true
	case "false", "0":
	default:
		return c, fmt.Errorf("INVENTORY_WEBHOOK_ALLOW_PRIVATE: want true or false, got %q", v)
	}
	if c.LogFormat != "json" && c.LogFormat != "console" {
		return c, fmt.Errorf("INVENTORY_LOG_FORMAT: want json or console, got %q", c.LogFormat)
	}
	if err := checkPprofAddr(c.PprofAddr, c.HTTPAddr); err != nil {
		return c, err
	}
	if c.SecretKey, err = parseSecretEnv("INVENTORY_SECRET_KEY"); err != nil {
		return c, err
	}
	if c.PreviousSecretKey, err = parseSecretEnv("INVENTORY_PREVIOUS_SECRET_KEY"); err != nil {
		return c, err
	}
	if _, _, isSQLite := sqlitePath(c.DatabaseURL); !isSQLite && c.SecretKey == nil {
		return c, errNoSecretForPostgres
	}
	if err := readReplicaConfig(&c); err != nil {
		return c, err
	}
	if c.PreviousSecretKey != nil && c.SecretKey == nil {
		return c, errors.New("INVENTORY_PREVIOUS_SECRET_KEY is set without INVENTORY_SECRET_KEY: a rotation needs the new secret too")
	}
	return c, nil
}
