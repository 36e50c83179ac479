package http

import (
	"slices"
	"strings"

	"github.com/shopstock/inventory/domain/code"
)

// isScan tells whether the property at path takes what a scanner sent
// (code.ScanProperties), which may hold the GS1 group separator.
func isScan(path string) bool {
	last := path
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		last = path[i+1:]
	}
	return slices.Contains(code.ScanProperties, last)
}
