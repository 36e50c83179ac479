package test

import (
	"os"
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

// TestMain stops the throwaway PostgreSQL cluster that tests of this package
// may start (see testdb.Main). Other test files here must not define one.
// The services the tests start from the environment (bootstrap, the
// command line) get testdb.SecretKey as their secret, which PostgreSQL
// needs; the tests of the secret itself set or clear it as they need.
func TestMain(m *testing.M) {
	if os.Getenv("INVENTORY_SECRET_KEY") == "" {
		os.Setenv("INVENTORY_SECRET_KEY", testdb.SecretKey)
	}
	testdb.Main(m)
}
