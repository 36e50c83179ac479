package spool

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// A body reads back as it came, whether it fits in memory or not, and a
// spilled body's file is gone once it is closed.
func TestBodyReadsBackWholeAndLeavesNoFile(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	for _, size := range []int{0, 1, InMemory - 1, InMemory, InMemory + 1, 3*InMemory + 17} {
		src := make([]byte, size)
		for i := range src {
			src[i] = byte(i * 7)
		}
		b, err := Read(bytes.NewReader(src), int64(size), -1)
		if err != nil {
			t.Fatalf("%d bytes: %v", size, err)
		}
		got, err := io.ReadAll(b)
		if err != nil || !bytes.Equal(got, src) || b.Size() != int64(size) {
			t.Errorf("%d bytes: read back %d bytes (size %d), equal %v, %v", size, len(got), b.Size(), bytes.Equal(got, src), err)
		}
		spilled := tempFiles(t)
		if (len(spilled) > 0) != (size > InMemory) {
			t.Errorf("%d bytes: temporary files %v; want one only beyond %d bytes", size, spilled, InMemory)
		}
		if err := b.Close(); err != nil {
			t.Errorf("%d bytes: close: %v", size, err)
		}
		if left := tempFiles(t); len(left) > 0 {
			t.Errorf("%d bytes: %v left after Close", size, left)
		}
	}
}

// A body of one byte more than allowed is refused, however large the
// bound, and leaves no file behind; reading stops a byte past the bound.
func TestBodyOverItsBoundIsRefused(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	for _, max := range []int64{0, 10, InMemory - 1, InMemory, 2 * InMemory} {
		src := &countingReader{r: bytes.NewReader(make([]byte, max+100))}
		if _, err := Read(src, max, -1); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%d bytes allowed, %d sent: %v, want ErrTooLarge", max, max+100, err)
		}
		if src.n != max+1 {
			t.Errorf("%d bytes allowed: %d read, want %d", max, src.n, max+1)
		}
		if left := tempFiles(t); len(left) > 0 {
			t.Errorf("%d bytes allowed: %v left behind", max, left)
		}
		if b, err := Read(bytes.NewReader(make([]byte, max)), max, max); err != nil || b.Size() != max {
			t.Errorf("exactly %d bytes: %v", max, err)
		} else {
			b.Close()
		}
	}
}

// A read error is handed back as it came, and nothing is left behind.
func TestBodyReadErrorLeavesNoFile(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	broken := errors.New("connection reset")
	src := io.MultiReader(bytes.NewReader(make([]byte, 2*InMemory)), errReader{broken})
	if _, err := Read(src, 4*InMemory, -1); !errors.Is(err, broken) {
		t.Errorf("read error: %v, want %v", err, broken)
	}
	if left := tempFiles(t); len(left) > 0 {
		t.Errorf("%v left behind", left)
	}
}

func tempFiles(t *testing.T) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(os.TempDir(), "inventory-body-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// A body held in memory hands out its bytes whole, whatever length was
// announced for it; a spilled one does not.
func TestBytesAreTheWholeBodyOnlyWhenItIsInMemory(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	for _, c := range []struct {
		size, announced int
		whole           bool
	}{{0, -1, true}, {100, 100, true}, {100, 10, true}, {100, 1000, true}, {InMemory, InMemory, true}, {InMemory + 1, InMemory + 1, false}} {
		src := bytes.Repeat([]byte{'x'}, c.size)
		b, err := Read(bytes.NewReader(src), 2*InMemory, int64(c.announced))
		if err != nil {
			t.Fatalf("%d bytes: %v", c.size, err)
		}
		got, whole := b.Bytes()
		if whole != c.whole || (whole && !bytes.Equal(got, src)) {
			t.Errorf("%d bytes announced as %d: Bytes gave %d bytes, whole %v; want whole %v", c.size, c.announced, len(got), whole, c.whole)
		}
		b.Close()
	}
}
