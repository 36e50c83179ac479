package application

import "github.com/shopstock/inventory/domain/barcode"

// ReadScan tells what a scanner sent means (barcode.ReadScan): a GTIN, a
// GS1 element string or plain text. The century of an element string's
// dates slides with the service's clock.
func (a *App) ReadScan(s string) (barcode.Scan, error) {
	return barcode.ReadScan(s, a.clock.Now())
}
