package code

import "strings"

// ScanProperties are the properties that take what a barcode scanner
// sent: besides any text, they may hold the GS1 group separator (ASCII 29),
// which ends a variable-length field of a raw element string.
var ScanProperties = []string{"scan"}

// CheckScan is CheckText for a scan, which may hold the group separator.
func CheckScan(s string, max int) error {
	return CheckText(strings.ReplaceAll(s, "\x1d", " "), max)
}
