package test

import (
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

// TestMain stops the throwaway PostgreSQL cluster that tests of this package
// may start (see testdb.Main). Other test files here must not define one.
func TestMain(m *testing.M) { testdb.Main(m) }
