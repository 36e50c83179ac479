// Command inventory runs the inventory service and manages its database and
// API users; `inventory help` tells how.
package main

import (
	"os"

	"github.com/shopstock/inventory/bootstrap"
)

func main() {
	os.Exit(bootstrap.Main(os.Args[1:], os.Stdout, os.Stderr))
}
