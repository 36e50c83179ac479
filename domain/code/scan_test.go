package code_test

import (
	"testing"

	"github.com/shopstock/inventory/domain/code"
)

func TestAScanMayHoldTheGroupSeparatorAndNoOtherControlCharacter(t *testing.T) {
	if err := code.CheckScan("0104006381333931\x1d10L1", 255); err != nil {
		t.Errorf("group separator refused: %v", err)
	}
	if err := code.CheckText("0104006381333931\x1d10L1", 255); err == nil {
		t.Error("a plain text took the group separator")
	}
	for _, s := range []string{"a\x00b", "a\nb", "a\x1eb"} {
		if err := code.CheckScan(s, 255); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}
