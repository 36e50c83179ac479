package http

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/shopstock/inventory/application"
)

// The shape renderBatch wrote through encoding/json; appendBatchResult must
// write the same bytes.
type batchResultJSON struct {
	Success        bool                `json:"success"`
	Message        string              `json:"message,omitempty"`
	IdempotencyKey string              `json:"idempotencyKey"`
	CreatedAt      string              `json:"createdAt"`
	Results        []operationResultJS `json:"results"`
}

type operationResultJS struct {
	OperationID json.RawMessage `json:"operationId,omitempty"`
	Success     bool            `json:"success"`
	Message     string          `json:"message,omitempty"`
}

func referenceRender(r application.BatchResult) ([]byte, error) {
	out := batchResultJSON{
		Success: r.Success, Message: r.Message, IdempotencyKey: r.IdempotencyKey,
		CreatedAt: r.CreatedAt.UTC().Format(timeLayout), Results: make([]operationResultJS, len(r.Results)),
	}
	for i, res := range r.Results {
		out.Results[i] = operationResultJS{OperationID: res.OperationID, Success: res.Success, Message: res.Message}
	}
	return json.Marshal(out)
}

func TestRenderBatchWritesWhatEncodingJSONWrites(t *testing.T) {
	texts := []string{"", "stock of article 7 would go negative", "bin <B&1> \"quoted\" \\ back", "tab\tnew\nline\x01",
		"Fach-ä ✓", "line\u2028sep\u2029", "bad \xff utf-8", "key-123_ABC"}
	ids := []string{"", "0", "17", "-3", "1.5e3", "\"op-1\"", "\"a<b>&c\"", "\"ü\"", "{\"a\": [1, 2]}", "[ 1 ,2 ]", "null", "true"}
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	for range 2000 {
		r := application.BatchResult{
			Success: rng.IntN(2) == 0, Message: pick(texts), IdempotencyKey: pick(texts),
			CreatedAt: time.Unix(rng.Int64N(4e9), 0).In(time.FixedZone("X", 3600*rng.IntN(5))),
		}
		if rng.IntN(10) > 0 {
			r.Results = make([]application.OperationResult, rng.IntN(5))
			for i := range r.Results {
				var id []byte
				if s := pick(ids); s != "" {
					id = []byte(s)
				}
				r.Results[i] = application.OperationResult{OperationID: id, Success: rng.IntN(2) == 0, Message: pick(texts)}
			}
		}
		want, err := referenceRender(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := renderBatch(r)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("renderBatch(%+v)\n got %s (%v)\nwant %s", r, got, err, want)
		}
	}
}

func BenchmarkRenderBatch(b *testing.B) {
	r := application.BatchResult{Success: true, IdempotencyKey: "bench-key", CreatedAt: time.Now(), Results: make([]application.OperationResult, 1000)}
	for i := range r.Results {
		r.Results[i] = application.OperationResult{OperationID: []byte("123"), Success: true}
	}
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			_, _ = referenceRender(r)
		}
	})
	b.Run("by-hand", func(b *testing.B) {
		for b.Loop() {
			_, _ = renderBatch(r)
		}
	})
}
