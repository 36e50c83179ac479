package stockcsv

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/shopstock/inventory/ports"
)

// mappings hands n export rows to each, with codes long enough that the
// export is some 100 bytes a line.
func mappings(n int) func(each func(ports.StockExportRow) error) error {
	return func(each func(ports.StockExportRow) error) error {
		for i := range n {
			if err := each(ports.StockExportRow{WarehouseCode: "WH1", BinLocationCode: fmt.Sprintf("BIN-%030d", i%5000),
				ArticleDetailNumber: fmt.Sprintf("SKU-%030d", i), ArticleDetailID: int64(i + 1), Stock: i % 100}); err != nil {
				return err
			}
		}
		return nil
	}
}

// A spooled export is the rendered one byte for byte, and leaves no file
// behind.
func TestASpooledExportIsTheRenderedOne(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	want, err := Render(mappings(3000))
	if err != nil {
		t.Fatal(err)
	}
	s, err := Spool(mappings(3000))
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := s.Send(&got); err != nil {
		t.Fatal(err)
	}
	if s.Size() != int64(len(want)) || !bytes.Equal(got.Bytes(), want) {
		t.Errorf("spooled %d bytes (size %d), rendered %d", got.Len(), s.Size(), len(want))
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if left, _ := filepath.Glob(filepath.Join(os.Getenv("TMPDIR"), "*")); len(left) != 0 {
		t.Errorf("files left behind: %v", left)
	}
	boom := errors.New("the database went away")
	if _, err := Spool(func(each func(ports.StockExportRow) error) error { return boom }); !errors.Is(err, boom) {
		t.Errorf("a failed export: %v", err)
	}
}

// Spooling holds a buffer, not the export: the heap after spooling 100 000
// mappings (some 9 MB of CSV) has grown by far less than the export.
func TestSpoolingKeepsTheExportOutOfMemory(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	var peak uint64
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	rows := mappings(100_000)
	s, err := Spool(func(each func(ports.StockExportRow) error) error {
		n := 0
		return rows(func(r ports.StockExportRow) error {
			if n++; n%10_000 == 0 {
				var m runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&m)
				peak = max(peak, m.HeapAlloc)
			}
			return each(r)
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Size() < 8<<20 {
		t.Fatalf("the export is %d bytes, too small to tell", s.Size())
	}
	if grown := int64(peak) - int64(before.HeapAlloc); grown > 2<<20 {
		t.Errorf("the heap grew by %d bytes while spooling a %d-byte export", grown, s.Size())
	}
}
