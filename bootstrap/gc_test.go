package bootstrap

import (
	"runtime/debug"
	"testing"
)

func TestServeCollectsLessUnlessGOGCIsSet(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	collectLess(func(string) string { return "" })
	if got := debug.SetGCPercent(100); got != serveGCPercent {
		t.Errorf("without GOGC the collector runs at %d%%, want %d%%", got, serveGCPercent)
	}
	collectLess(func(name string) string {
		if name == "GOGC" {
			return "100"
		}
		return ""
	})
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC=100 the collector runs at %d%%, want GOGC's 100%%", got)
	}
}
