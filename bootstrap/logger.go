package bootstrap

import (
	"fmt"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
)

// NewLogger builds the zap logger the configuration asks for.
func NewLogger(c Config) (*zap.Logger, error) {
	cfg, err := loggerConfig(c)
	if err != nil {
		return nil, err
	}
	// Stack traces for errors only: the development config adds them to
	// warnings too, which would bury a start's few lines.
	return cfg.Build(zap.AddStacktrace(zapcore.ErrorLevel))
}

func loggerConfig(c Config) (zap.Config, error) {
	level, err := zapcore.ParseLevel(c.LogLevel)
	if err != nil {
		return zap.Config{}, fmt.Errorf("INVENTORY_LOG_LEVEL: %w", err)
	}
	cfg := zap.NewProductionConfig()
	if c.LogFormat == "console" {
		cfg = zap.NewDevelopmentConfig()
	}
	cfg.Level = zap.NewAtomicLevelAt(level)
	cfg.EncoderConfig.EncodeTime = zapcore.ISO8601TimeEncoder
	// The production preset samples: past 100 like lines a second it drops
	// most of them, access-log lines and failed logins included. Every
	// request must be in the log.
	cfg.Sampling = nil
	return cfg, nil
}
