// Package spool holds a request body that has arrived whole, for the
// adapters that read a body before they process it (the JSON API and the
// console): its first bytes in memory, the rest in a temporary file, so
// that many bodies arriving at once cost little memory however large each
// may be.
package spool

import (
	"bytes"
	"errors"
	"io"
	"os"
)

// InMemory is how much of a body is kept in memory; the rest goes to a
// temporary file.
const InMemory = 1 << 20

// ErrTooLarge is what Read answers for a body of more bytes than allowed;
// it stops reading there.
var ErrTooLarge = errors.New("spool: the body is larger than allowed")

// Body is a body read to its end. Close removes its temporary file.
type Body struct {
	head []byte
	file *os.File
	size int64
	r    io.Reader
}

// Read reads src to its end, at most max bytes, the first InMemory of them
// into memory and the rest into a temporary file. announced is the length
// the sender announced (negative when unknown): the memory for it is taken
// at once rather than grown by doubling. A body of more than max bytes is
// ErrTooLarge and leaves nothing behind; so does any read error, which
// Read hands back as it came.
func Read(src io.Reader, max, announced int64) (*Body, error) {
	b := &Body{}
	var head bytes.Buffer
	if announced > 0 && announced <= max {
		head.Grow(int(min(announced, InMemory)) + bytes.MinRead)
	}
	n, err := head.ReadFrom(io.LimitReader(src, min(max+1, InMemory)))
	b.head, b.size = head.Bytes(), n
	if err == nil && n == InMemory && max >= InMemory {
		err = b.spill(src, max)
	}
	if err == nil && b.size > max {
		err = ErrTooLarge
	}
	if err != nil {
		b.Close()
		return nil, err
	}
	b.r = bytes.NewReader(b.head)
	if b.file != nil {
		b.r = io.MultiReader(b.r, b.file)
	}
	return b, nil
}

// spill writes what follows the first InMemory bytes to a temporary file,
// made only once a byte more has come.
func (b *Body) spill(src io.Reader, max int64) error {
	var next [1]byte
	if _, err := io.ReadFull(src, next[:]); err != nil {
		if errors.Is(err, io.EOF) {
			return nil
		}
		return err
	}
	src = io.MultiReader(bytes.NewReader(next[:]), src)
	f, err := os.CreateTemp("", "inventory-body-*")
	if err != nil {
		return err
	}
	b.file = f
	n, err := io.Copy(f, io.LimitReader(src, max+1-b.size))
	b.size += n
	if err != nil {
		return err
	}
	_, err = f.Seek(0, io.SeekStart)
	return err
}

// Bytes is the whole body when it is held in memory; ok is false when part
// of it is in the temporary file. The bytes are the body's own: they are
// not to be changed.
func (b *Body) Bytes() (body []byte, ok bool) { return b.head, b.file == nil }

// Size is the number of bytes of the body.
func (b *Body) Size() int64 { return b.size }

// Read reads the body from its start.
func (b *Body) Read(p []byte) (int, error) { return b.r.Read(p) }

// Close removes the temporary file, if the body needed one.
func (b *Body) Close() error {
	if b.file == nil {
		return nil
	}
	f := b.file
	b.file = nil
	err := f.Close()
	if rmErr := os.Remove(f.Name()); err == nil {
		err = rmErr
	}
	return err
}
