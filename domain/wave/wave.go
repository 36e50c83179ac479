// Package wave holds the picking wave: many orders picked in one walk
// through a warehouse, each pick believed only when its bin and its
// product were scanned.
package wave

import (
	"cmp"
	"slices"
	"time"

	"github.com/shopstock/inventory/domain/errs"
)

// MaxOrders is the most orders one wave picks when it takes the first
// Open orders it can fill.
const MaxOrders = 200

// MaxPassedOver is the most Open orders a wave that takes the first ones
// passes over because it cannot fill them: it stops looking after that,
// so that a warehouse out of stock costs one bounded request, not a walk
// through every open order.
const MaxPassedOver = 1000

// Status is where a task stands.
type Status string

const (
	// StatusOpen: pieces are left to pick.
	StatusOpen Status = "open"
	// StatusPicked: every piece was confirmed.
	StatusPicked Status = "picked"
	// StatusShort: the bin held fewer pieces than the task; the rest was
	// released.
	StatusShort Status = "short"
)

// ParseStatus reads a stored status.
func ParseStatus(s string) (Status, error) {
	switch st := Status(s); st {
	case StatusOpen, StatusPicked, StatusShort:
		return st, nil
	}
	return "", errs.E(errs.Internal, "unknown picking wave task status %q", s)
}

// Allocation is one order position's part of a task: the pieces reserved
// for it there, and how many of them were picked.
type Allocation struct {
	OrderID       int64
	OrderDetailID int64
	Quantity      int
	Picked        int
}

// Item is what lies on a bin for a task: a product (its number and EAN as
// scanned) and its lot ("" for a product that is not lot-tracked).
type Item struct {
	BinLocationID   int64
	BinLocationCode string
	ArticleDetailID int64
	ArticleNumber   string
	EAN             string
	Lot             string
}

// Pick is one reservation of an order position that a wave picks.
type Pick struct {
	Item
	OrderID       int64
	OrderDetailID int64
	Quantity      int
}

// Task is one stop of the walk: every piece of one product and lot that
// the wave's orders hold on one bin.
type Task struct {
	id      int64
	item    Item
	status  Status
	orders  []Allocation
	changed bool
	stored  bool
}

func (t *Task) ID() int64            { return t.id }
func (t *Task) Item() Item           { return t.item }
func (t *Task) Status() Status       { return t.status }
func (t *Task) Orders() []Allocation { return slices.Clone(t.orders) }

// Changed tells whether the task differs from what was loaded (a new
// task is changed too).
func (t *Task) Changed() bool { return t.changed || !t.stored }

// New tells whether the task is not stored yet.
func (t *Task) New() bool { return !t.stored }

// Quantity is every piece the task was given to pick.
func (t *Task) Quantity() int {
	n := 0
	for _, a := range t.orders {
		n += a.Quantity
	}
	return n
}

// Picked is how many of them were confirmed.
func (t *Task) Picked() int {
	n := 0
	for _, a := range t.orders {
		n += a.Picked
	}
	return n
}

// Left is what remains to pick while the task is open.
func (t *Task) Left() int {
	if t.status != StatusOpen {
		return 0
	}
	return t.Quantity() - t.Picked()
}

// Shortfall is an order's need named when the wave was made or when a
// bin was short: why the order was skipped, or what could not be reserved.
type Shortfall struct {
	// OrderDetailID is the position concerned, 0 for the order as a whole.
	OrderDetailID int64
	Message       string
}

// Skipped is an order the wave could not fill, left untouched.
type Skipped struct {
	OrderID    int64
	Shortfalls []Shortfall
}

// Short is what a short bin left unreserved for a position, because no
// other bin of the warehouse held it.
type Short struct {
	OrderID       int64
	OrderDetailID int64
	Quantity      int
}

// Wave is a picking wave: its tasks in walking order, the orders it
// skipped, and what short bins left unreserved.
type Wave struct {
	id          int64
	warehouseID int64
	createdAt   time.Time
	user        string
	tasks       []*Task
	skipped     []Skipped
	short       []Short
	shortDirty  bool
}

// New makes a wave of the picks reserved for its orders: they are grouped
// per bin, product and lot into tasks and put in walking order.
func New(warehouseID int64, createdAt time.Time, user string, picks []Pick, skipped []Skipped) (*Wave, error) {
	if warehouseID <= 0 {
		return nil, errs.E(errs.Internal, "a picking wave needs a warehouse")
	}
	w := &Wave{warehouseID: warehouseID, createdAt: createdAt.UTC(), user: user, skipped: slices.Clone(skipped)}
	if err := w.add(picks); err != nil {
		return nil, err
	}
	return w, nil
}

// TaskRecord is a stored task.
type TaskRecord struct {
	ID     int64
	Item   Item
	Status string
	Orders []Allocation
}

// UnmarshalWaveFromDatabase rebuilds a stored wave. Only storage calls it.
func UnmarshalWaveFromDatabase(id, warehouseID int64, createdAt time.Time, user string, tasks []TaskRecord, skipped []Skipped, short []Short) (*Wave, error) {
	w := &Wave{id: id, warehouseID: warehouseID, createdAt: createdAt.UTC(), user: user, skipped: skipped, short: short}
	for _, r := range tasks {
		st, err := ParseStatus(r.Status)
		if err != nil {
			return nil, err
		}
		t := &Task{id: r.ID, item: r.Item, status: st, orders: slices.Clone(r.Orders), stored: true}
		for _, a := range t.orders {
			if a.Quantity < 0 || a.Picked < 0 || a.Picked > a.Quantity {
				return nil, errs.E(errs.Internal, "task %d of picking wave %d has picked %d of %d", r.ID, id, a.Picked, a.Quantity)
			}
		}
		sortAllocations(t.orders)
		w.tasks = append(w.tasks, t)
	}
	w.sortTasks()
	return w, nil
}

func (w *Wave) ID() int64            { return w.id }
func (w *Wave) WarehouseID() int64   { return w.warehouseID }
func (w *Wave) CreatedAt() time.Time { return w.createdAt }
func (w *Wave) User() string         { return w.user }
func (w *Wave) Skipped() []Skipped   { return slices.Clone(w.skipped) }
func (w *Wave) Short() []Short       { return slices.Clone(w.short) }

// ShortChanged tells whether the short list differs from what was loaded.
func (w *Wave) ShortChanged() bool { return w.shortDirty }

// Tasks are the wave's tasks in walking order.
func (w *Wave) Tasks() []*Task { return slices.Clone(w.tasks) }

// AssignID gives a new wave its id.
func (w *Wave) AssignID(id int64) { w.id = id }

// Saved forgets what changed, once it is stored.
func (w *Wave) Saved() {
	for _, t := range w.tasks {
		t.changed, t.stored = false, true
	}
	w.shortDirty = false
}

// Progress counts the tasks, those picked and those short.
type Progress struct {
	Tasks, Picked, Short int
}

// Progress tells how far the walk has come.
func (w *Wave) Progress() Progress {
	p := Progress{Tasks: len(w.tasks)}
	for _, t := range w.tasks {
		switch t.status {
		case StatusPicked:
			p.Picked++
		case StatusShort:
			p.Short++
		}
	}
	return p
}

// Task is the wave's task with this id.
func (w *Wave) Task(id int64) (*Task, error) {
	for _, t := range w.tasks {
		if t.id == id {
			return t, nil
		}
	}
	return nil, errs.NotFoundf("task %d of picking wave %d not found", id, w.id)
}

// NextTask is the first open task in walking order, nil when none is left.
func (w *Wave) NextTask() *Task {
	for _, t := range w.tasks {
		if t.status == StatusOpen {
			return t
		}
	}
	return nil
}

// OrderIDs are the orders the wave picks, ascending.
func (w *Wave) OrderIDs() []int64 {
	var ids []int64
	for _, t := range w.tasks {
		for _, a := range t.orders {
			ids = append(ids, a.OrderID)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids)
}

// PickedFor is how many pieces the wave picked for a position, on all its
// tasks.
func (w *Wave) PickedFor(orderDetailID int64) int {
	n := 0
	for _, t := range w.tasks {
		for _, a := range t.orders {
			if a.OrderDetailID == orderDetailID {
				n += a.Picked
			}
		}
	}
	return n
}

// add puts picks into tasks: a pick joins the open task of its bin,
// product and lot, else makes a new one.
func (w *Wave) add(picks []Pick) error {
	for _, p := range picks {
		if p.Quantity <= 0 || p.OrderID <= 0 || p.OrderDetailID <= 0 || p.BinLocationID <= 0 || p.ArticleDetailID <= 0 {
			return errs.E(errs.Internal, "invalid pick %+v for a picking wave", p)
		}
		i := slices.IndexFunc(w.tasks, func(t *Task) bool {
			return t.status == StatusOpen && t.item.BinLocationID == p.BinLocationID &&
				t.item.ArticleDetailID == p.ArticleDetailID && t.item.Lot == p.Lot
		})
		var t *Task
		if i >= 0 {
			t = w.tasks[i]
		} else {
			t = &Task{item: p.Item, status: StatusOpen}
			w.tasks = append(w.tasks, t)
		}
		t.changed = true
		j := slices.IndexFunc(t.orders, func(a Allocation) bool { return a.OrderDetailID == p.OrderDetailID })
		if j >= 0 {
			t.orders[j].Quantity += p.Quantity
		} else {
			t.orders = append(t.orders, Allocation{OrderID: p.OrderID, OrderDetailID: p.OrderDetailID, Quantity: p.Quantity})
		}
		sortAllocations(t.orders)
	}
	w.sortTasks()
	// Task ids count within the wave: the first tasks in walking order,
	// the ones added later after the highest.
	next := int64(1)
	for _, t := range w.tasks {
		next = max(next, t.id+1)
	}
	for _, t := range w.tasks {
		if t.id == 0 {
			t.id = next
			next++
		}
	}
	return nil
}

// sortAllocations puts a task's orders in the order picked pieces go to
// them: ascending order id, then position.
func sortAllocations(as []Allocation) {
	slices.SortFunc(as, func(a, b Allocation) int {
		return cmp.Or(cmp.Compare(a.OrderID, b.OrderID), cmp.Compare(a.OrderDetailID, b.OrderDetailID))
	})
}

// sortTasks puts the tasks in walking order: bin code in natural order,
// then product number in byte order, then lot, then the bin itself (two
// bins of one code do not exist in a warehouse, but the order stays total),
// then the order the tasks were made in (new ones last).
func (w *Wave) sortTasks() {
	slices.SortStableFunc(w.tasks, func(a, b *Task) int {
		return cmp.Or(CompareBinCodes(a.item.BinLocationCode, b.item.BinLocationCode),
			cmp.Compare(a.item.ArticleNumber, b.item.ArticleNumber), cmp.Compare(a.item.Lot, b.item.Lot),
			cmp.Compare(a.item.BinLocationID, b.item.BinLocationID), compareIDs(a.id, b.id))
	})
}

// compareIDs orders stored tasks by id, and new tasks (id 0) after them.
func compareIDs(a, b int64) int {
	switch {
	case a == b:
		return 0
	case a == 0:
		return 1
	case b == 0:
		return -1
	}
	return cmp.Compare(a, b)
}

// CompareBinCodes orders bin codes as a person reads them: runs of digits
// by their value (A-2 before A-10), everything else byte by byte. Codes
// equal in value ("A-02", "A-2") fall back to byte order, so the order is
// total.
func CompareBinCodes(a, b string) int {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if isDigit(a[i]) && isDigit(b[j]) {
			x, y := i, j
			for i < len(a) && isDigit(a[i]) {
				i++
			}
			for j < len(b) && isDigit(b[j]) {
				j++
			}
			if c := compareDigits(a[x:i], b[y:j]); c != 0 {
				return c
			}
			continue
		}
		if c := cmp.Compare(a[i], b[j]); c != 0 {
			return c
		}
		i++
		j++
	}
	if c := cmp.Compare(len(a)-i, len(b)-j); c != 0 {
		return c
	}
	return cmp.Compare(a, b)
}

// compareDigits compares two runs of digits by value, however long.
func compareDigits(a, b string) int {
	a, b = trimZeros(a), trimZeros(b)
	return cmp.Or(cmp.Compare(len(a), len(b)), cmp.Compare(a, b))
}

func trimZeros(s string) string {
	for len(s) > 1 && s[0] == '0' {
		s = s[1:]
	}
	return s
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
