package bunstore

import (
	"encoding/json"
	"time"
)

// On SQLite a batch's rows travel as one JSON argument that json_each
// unpacks: parsing a thousand-row VALUES list costs SQLite far more than
// reading the same rows as JSON, and there is no network to save.

// sqliteTimeLayout is how bun writes times into SQLite; rows written through
// json_each must look the same to be read back alike.
const sqliteTimeLayout = "2006-01-02 15:04:05.999999-07:00"

func sqliteTime(t *time.Time) any {
	if t == nil {
		return nil
	}
	return t.UTC().Format(sqliteTimeLayout)
}

// jsonRows encodes rows (each a slice of column values) as one JSON array.
func jsonRows(rows [][]any) (string, error) {
	b, err := json.Marshal(rows)
	return string(b), err
}
