package stockcsv

import (
	"bufio"
	"io"
	"os"

	"github.com/shopstock/inventory/ports"
)

// Spooled is an export rendered into a temporary file: its rows are read
// in one statement, one snapshot, and written out as they arrive, so that
// the memory it takes is a buffer's whatever the number of mappings, the
// database connection is free before the client reads the first byte
// (a client that stalls holds a file, not a connection), and an error
// while reading is still an ordinary error response.
type Spooled struct {
	file *os.File
	size int64
	name string // the file's name while it could not be removed yet
}

// Spool renders the export into a temporary file. The file is removed at
// once where the system allows (it lives on while open, and a crash leaves
// nothing behind), else at Close. The caller closes the Spooled.
func Spool(export func(each func(ports.StockExportRow) error) error) (*Spooled, error) {
	f, err := os.CreateTemp("", "inventory-stock-*.csv")
	if err != nil {
		return nil, err
	}
	s := &Spooled{file: f}
	if os.Remove(f.Name()) != nil {
		s.name = f.Name()
	}
	if err := s.fill(export); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Spooled) fill(export func(each func(ports.StockExportRow) error) error) error {
	buf := bufio.NewWriterSize(s.file, sendChunk)
	x, err := NewWriter(buf)
	if err != nil {
		return err
	}
	if err := export(x.Write); err != nil {
		return err
	}
	if err := x.Flush(); err != nil {
		return err
	}
	if err := buf.Flush(); err != nil {
		return err
	}
	if s.size, err = s.file.Seek(0, io.SeekCurrent); err != nil {
		return err
	}
	_, err = s.file.Seek(0, io.SeekStart)
	return err
}

// Size is the export's length in bytes.
func (s *Spooled) Size() int64 { return s.size }

// Send writes the export to w in pieces, as Send does a rendered one.
func (s *Spooled) Send(w io.Writer) error {
	buf := make([]byte, sendChunk)
	for {
		n, err := s.file.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return werr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// Close gives the file back to the system.
func (s *Spooled) Close() error {
	err := s.file.Close()
	if s.name != "" {
		if rerr := os.Remove(s.name); err == nil {
			err = rerr
		}
	}
	return err
}
