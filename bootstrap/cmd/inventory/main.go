// Command inventory runs the inventory service.
package main

import (
	"fmt"
	"os"
	"time"

	"go.uber.org/fx"

	"github.com/shopstock/inventory/bootstrap"
)

func main() {
	cfg, err := bootstrap.ConfigFromEnv()
	if err != nil {
		fmt.Fprintln(os.Stderr, "inventory:", err)
		os.Exit(2)
	}
	// fx.App.Run blocks until SIGINT or SIGTERM, then stops the hooks in
	// reverse order: the HTTP server drains before the database closes.
	fx.New(bootstrap.Options(cfg), fx.StopTimeout(30*time.Second)).Run()
}
