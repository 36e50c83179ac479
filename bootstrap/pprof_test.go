package bootstrap

import (
	"testing"

	"go.uber.org/fx/fxtest"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
)

// Profiles reveal the process's internals and pprof has no auth: a
// listener that others than the machine itself can reach is warned of.
func TestAProfilingListenerBeyondLoopbackIsWarnedOf(t *testing.T) {
	for addr, warned := range map[string]bool{"127.0.0.1:0": false, "[::1]:0": false, "localhost:0": false, ":0": true, "0.0.0.0:0": true} {
		core, logs := observer.New(zapcore.WarnLevel)
		lc := fxtest.NewLifecycle(t)
		if err := runProfiler(lc, Config{PprofAddr: addr, HTTPAddr: "127.0.0.1:8080"}, zap.New(core)); err != nil {
			t.Fatal(err)
		}
		lc.RequireStart()
		got := logs.FilterMessageSnippet("loopback").Len() > 0
		lc.RequireStop()
		if got != warned {
			t.Errorf("%s: warned %v, want %v (%v)", addr, got, warned, logs.All())
		}
	}
}
