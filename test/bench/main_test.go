package bench_test

import (
	"testing"

	"github.com/shopstock/inventory/test/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }
