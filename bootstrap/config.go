// Package bootstrap reads the configuration and wires the adapters onto the
// ports with fx. It is the only package that knows fx.
package bootstrap

import (
	"fmt"
	"os"
	"time"
)

// Config is the service's configuration, read from the environment.
type Config struct {
	HTTPAddr             string
	DatabaseURL          string
	APIUser              string
	APIKey               string
	SMTPURL              string
	MailFrom             string
	BaseURL              string
	IdempotencyRetention time.Duration
	MailRetention        time.Duration
	EventRetention       time.Duration
	WebhookAllowPrivate  bool
	LogLevel             string
	LogFormat            string
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
		MailFrom:    get("INVENTORY_MAIL_FROM", "inventory@localhost"),
		BaseURL:     get("INVENTORY_BASE_URL", ""),
		LogLevel:    get("INVENTORY_LOG_LEVEL", "info"),
		LogFormat:   get("INVENTORY_LOG_FORMAT", "json"),
	}
	retention, err := time.ParseDuration(get("INVENTORY_IDEMPOTENCY_RETENTION", "720h"))
	if err != nil || retention <= 0 {
		return c, fmt.Errorf("INVENTORY_IDEMPOTENCY_RETENTION: want a positive Go duration such as 720h, got %q", os.Getenv("INVENTORY_IDEMPOTENCY_RETENTION"))
	}
	c.IdempotencyRetention = retention
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
	return c, nil
}
