package bootstrap

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// The access log writes one line per request; none may be sampled away.
func TestTheLogKeepsEveryLine(t *testing.T) {
	for _, format := range []string{"json", "console"} {
		cfg, err := loggerConfig(Config{LogLevel: "info", LogFormat: format})
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(t.TempDir(), "log")
		cfg.OutputPaths = []string{path}
		log, err := cfg.Build()
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 1000; i++ {
			log.Info("request")
		}
		_ = log.Sync()
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if n := bytes.Count(raw, []byte("\n")); n != 1000 {
			t.Fatalf("%s: %d of 1000 lines written", format, n)
		}
	}
}
