package idempotency

import (
	"strings"
	"testing"

	"github.com/shopstock/inventory/domain/errs"
)

func TestAKeyIsOneTo255PrintableCharacters(t *testing.T) {
	for _, ok := range []string{"k", "stocktake-2026-11-22", strings.Repeat("ü", 255), "a b"} {
		if got, err := ParseKey(ok); err != nil || got != ok {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", strings.Repeat("x", 256), "a\x00b", "a\tb", "a\x7f", "\xff\xfe", "caf\xe9"} {
		if _, err := ParseKey(bad); errs.KindOf(err) != errs.Invalid {
			t.Errorf("%q: want invalid, got %v", bad, err)
		}
	}
}
