package ports

import (
	"context"

	"github.com/shopstock/inventory/domain/wave"
)

// WaveRepository stores picking waves with their tasks. Inside Write, Get
// locks the wave, before its orders (the lock order of every writer:
// wave, orders, products).
type WaveRepository interface {
	// Add stores a new wave with its tasks and assigns its id.
	Add(ctx context.Context, w *wave.Wave) error
	Get(ctx context.Context, id int64) (*wave.Wave, error)
	// Save writes the tasks that changed or are new and the short list.
	Save(ctx context.Context, w *wave.Wave) error
	List(ctx context.Context, q ListQuery) (Page[*wave.Wave], error)
	// OpenOrderIDs are the ids of up to limit orders with status Open and
	// an id above after, ascending.
	OpenOrderIDs(ctx context.Context, after int64, limit int) ([]int64, error)
	// WavesOf tells, for each of these orders that a wave picks, the
	// latest such wave.
	WavesOf(ctx context.Context, orderIDs []int64) (map[int64]int64, error)
	// Articles tells the number and EAN of these article details.
	Articles(ctx context.Context, ids []int64) (map[int64]WaveArticle, error)
}

// WaveArticle is how a picker's scan names a product.
type WaveArticle struct {
	Number string
	EAN    string
}

// WaveFields are the list properties of picking waves.
var WaveFields = ListFields{
	"pickingWave.id": IntField, "pickingWave.warehouseId": IntField, "pickingWave.createdAt": TimeField,
	"pickingWave.user": TextField,
}
