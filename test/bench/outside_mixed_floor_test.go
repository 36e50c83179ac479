package bench_test

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// openFloorDB opens tables of the floor's own beside the service's
// database: a schema of its own on PostgreSQL (named name), a file of its
// own (name.db) beside the service's on SQLite, with the service's
// settings. It returns the floor's database and its URL.
func openFloorDB(b *testing.B, url, name string) (*sql.DB, string) {
	if path, ok := strings.CutPrefix(url, "sqlite:"); ok {
		url = "sqlite:" + filepath.Join(filepath.Dir(path), name+".db")
		return openSQL(b, url), url
	}
	if _, err := openSQL(b, url).Exec("CREATE SCHEMA " + name); err != nil {
		b.Fatal(err)
	}
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	url += sep + "search_path=" + name
	return openSQL(b, url), url
}

// mixedFloor is the mixed workload's floor: the same transactions done by
// hand on tables of its own, with plain statements a row at a time. Each
// product row keeps its figures (stock, reserved, what orders still need,
// what purchase orders bring); every transaction locks its order or
// purchase order first, then its products in id order (each before its
// mappings), takes its feed positions from one counter row at the end and
// writes its events (stock.changed per product, status changes). On
// SQLite one connection writes (writers queue in the process, as the
// service's do) and four read.
type mixedFloor struct {
	db, read *sql.DB
	pg       bool
}

var mixedFloorTables = []string{
	`CREATE TABLE products (id BIGINT PRIMARY KEY, reorder_point INTEGER NOT NULL, stock BIGINT NOT NULL, reserved BIGINT NOT NULL,
  outstanding BIGINT NOT NULL, incoming BIGINT NOT NULL)`,
	`CREATE TABLE mappings (id INTEGER PRIMARY KEY, bin_id BIGINT NOT NULL, product_id BIGINT NOT NULL, stock INTEGER NOT NULL,
  reserved INTEGER NOT NULL, UNIQUE (bin_id, product_id))`,
	`CREATE INDEX mappings_product ON mappings (product_id)`,
	`CREATE TABLE ledger (id INTEGER PRIMARY KEY, product_id BIGINT NOT NULL, bin_id BIGINT NOT NULL, type TEXT NOT NULL,
  quantity INTEGER NOT NULL, stock_after INTEGER NOT NULL, order_id BIGINT, created_at TEXT NOT NULL)`,
	`CREATE INDEX ledger_mapping ON ledger (bin_id, product_id)`,
	`CREATE TABLE orders (id INTEGER PRIMARY KEY, number TEXT NOT NULL UNIQUE, status TEXT NOT NULL)`,
	`CREATE TABLE order_lines (id INTEGER PRIMARY KEY, order_id BIGINT NOT NULL, product_id BIGINT NOT NULL, quantity INTEGER NOT NULL,
  shipped INTEGER NOT NULL, status TEXT NOT NULL)`,
	`CREATE INDEX order_lines_order ON order_lines (order_id)`,
	`CREATE TABLE reservations (id INTEGER PRIMARY KEY, order_id BIGINT NOT NULL, line_id BIGINT NOT NULL, mapping_id BIGINT NOT NULL, quantity INTEGER NOT NULL)`,
	`CREATE INDEX reservations_order ON reservations (order_id)`,
	`CREATE INDEX reservations_mapping ON reservations (mapping_id)`,
	`CREATE TABLE purchase_orders (id INTEGER PRIMARY KEY, number TEXT NOT NULL UNIQUE, status TEXT NOT NULL)`,
	`CREATE TABLE po_lines (id INTEGER PRIMARY KEY, po_id BIGINT NOT NULL, product_id BIGINT NOT NULL, quantity INTEGER NOT NULL, received INTEGER NOT NULL)`,
	`CREATE INDEX po_lines_po ON po_lines (po_id)`,
	`CREATE TABLE feed (name TEXT PRIMARY KEY, value BIGINT NOT NULL)`,
	`CREATE TABLE events (id BIGINT PRIMARY KEY, type TEXT NOT NULL, created_at TEXT NOT NULL, data TEXT NOT NULL)`,
	`INSERT INTO feed (name, value) VALUES ('last', 0)`,
}

// mixedFloorChecks count what breaks the floor's invariants.
var mixedFloorChecks = map[string]string{
	"floor mappings whose stock is not their ledger's sum": `SELECT COUNT(*) FROM mappings AS m
WHERE m.stock <> (SELECT COALESCE(SUM(l.quantity), 0) FROM ledger AS l WHERE l.bin_id = m.bin_id AND l.product_id = m.product_id)`,
	"floor mappings below zero or reserved beyond stock": `SELECT COUNT(*) FROM mappings WHERE stock < 0 OR reserved < 0 OR reserved > stock`,
	"floor mappings whose reserved stock is not their reservations' sum": `SELECT COUNT(*) FROM mappings AS m
WHERE m.reserved <> (SELECT COALESCE(SUM(r.quantity), 0) FROM reservations AS r WHERE r.mapping_id = m.id)`,
	"floor products whose figures are not their mappings' sums": `SELECT COUNT(*) FROM products AS p
WHERE p.stock <> (SELECT COALESCE(SUM(m.stock), 0) FROM mappings AS m WHERE m.product_id = p.id)
   OR p.reserved <> (SELECT COALESCE(SUM(m.reserved), 0) FROM mappings AS m WHERE m.product_id = p.id)`,
}

// newMixedFloor creates the floor's tables and loads the shop's stock:
// the same products, mappings and stock as the service's, with a
// stocktake ledger entry per mapping.
func newMixedFloor(b *testing.B, url string) *mixedFloor {
	db, _ := openFloorDB(b, url, "mixed_floor")
	f := &mixedFloor{db: db, read: db, pg: !strings.HasPrefix(url, "sqlite:")}
	if f.pg {
		db.SetMaxOpenConns(shopClients)
		db.SetMaxIdleConns(shopClients)
	} else {
		db.SetMaxOpenConns(1)
		f.read, _ = openFloorDB(b, url, "mixed_floor")
		f.read.SetMaxOpenConns(4)
	}
	for _, q := range mixedFloorTables {
		if f.pg {
			q = strings.Replace(q, "id INTEGER PRIMARY KEY", "id BIGSERIAL PRIMARY KEY", 1)
		}
		if _, err := db.Exec(q); err != nil {
			b.Fatalf("floor: %v\n%s", err, q)
		}
	}
	err := f.tx(func(tx *sql.Tx) error {
		for p := 1; p <= shopProducts; p++ {
			reorder := 0
			if p%10 == 0 {
				reorder = 2*shopStock - 10
			}
			if _, err := tx.Exec(f.q(`INSERT INTO products (id, reorder_point, stock, reserved, outstanding, incoming) VALUES (?, ?, ?, 0, 0, 0)`),
				p, reorder, 2*shopStock); err != nil {
				return err
			}
			for _, bin := range shopBinsOf(p) {
				if _, err := tx.Exec(f.q(`INSERT INTO mappings (bin_id, product_id, stock, reserved) VALUES (?, ?, ?, 0)`), bin, p, shopStock); err != nil {
					return err
				}
				if _, err := tx.Exec(f.q(`INSERT INTO ledger (product_id, bin_id, type, quantity, stock_after, created_at) VALUES (?, ?, 'stocktake', ?, ?, ?)`),
					p, bin, shopStock, shopStock, now()); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := db.Exec("ANALYZE"); err != nil {
		b.Fatal(err)
	}
	return f
}

// q spells the statement's ? parameters as PostgreSQL's $n there.
func (f *mixedFloor) q(s string) string {
	if !f.pg {
		return s
	}
	var out strings.Builder
	n := 0
	for _, r := range s {
		if r == '?' {
			n++
			out.WriteString("$" + strconv.Itoa(n))
			continue
		}
		out.WriteRune(r)
	}
	return out.String()
}

// forUpdate locks the rows read on PostgreSQL; SQLite's immediate
// transaction already holds the database.
func (f *mixedFloor) forUpdate() string {
	if f.pg {
		return " FOR UPDATE"
	}
	return ""
}

func (f *mixedFloor) tx(fn func(tx *sql.Tx) error) error {
	tx, err := f.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck
	if err := fn(tx); err != nil {
		return err
	}
	return tx.Commit()
}

func now() string { return time.Now().UTC().Format(time.RFC3339Nano) }

// floorEvent is an event to record.
type floorEvent struct{ kind, data string }

// product changes a product's figures by the deltas, which locks its row,
// and returns its stock.changed.
func (f *mixedFloor) product(tx *sql.Tx, p int64, stock, reserved, outstanding, incoming int) (floorEvent, error) {
	var s, r, o, in, reorder int64
	err := tx.QueryRow(f.q(`UPDATE products SET stock = stock + ?, reserved = reserved + ?, outstanding = outstanding + ?, incoming = incoming + ?
WHERE id = ? RETURNING stock, reserved, outstanding, incoming, reorder_point`), stock, reserved, outstanding, incoming, p).Scan(&s, &r, &o, &in, &reorder)
	return floorEvent{"stock.changed", fmt.Sprintf(`{"id":%d,"number":"SHOP%d","name":"","reorderPoint":%d,"physicalStock":%d,"physicalStockForSale":%[4]d,`+
		`"reservedStock":%d,"availableStock":%d,"incomingStock":%d,"warehouseStocks":[{"warehouseId":1,"warehouseCode":"SHOP","stock":%[4]d,"reservedStock":%[5]d}],`+
		`"cause":{"type":"orders","idempotencyKey":null,"orderId":null}}`, p, p, reorder, s, r, s-o, in)}, err
}

// record takes the events' feed positions from the counter row and
// writes them.
func (f *mixedFloor) record(tx *sql.Tx, events []floorEvent) error {
	var last int64
	if err := tx.QueryRow(f.q(`UPDATE feed SET value = value + ? WHERE name = 'last' RETURNING value`), len(events)).Scan(&last); err != nil {
		return err
	}
	at := now()
	for i, e := range events {
		if _, err := tx.Exec(f.q(`INSERT INTO events (id, type, created_at, data) VALUES (?, ?, ?, ?)`), last-int64(len(events)-1-i), e.kind, at, e.data); err != nil {
			return err
		}
	}
	return nil
}

func statusChanged(kind string, id int64, status, previous string) floorEvent {
	return floorEvent{kind, fmt.Sprintf(`{"id":%d,"status":%q,"previousStatus":%q}`, id, status, previous)}
}

// lineRow is a position as a transaction reads it.
type lineRow struct{ id, product, open int64 }

func (f *mixedFloor) lines(tx *sql.Tx, query string, id int64) ([]lineRow, error) {
	rows, err := tx.Query(f.q(query), id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []lineRow
	for rows.Next() {
		var l lineRow
		if err := rows.Scan(&l.id, &l.product, &l.open); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

func (f *mixedFloor) newOrder(_ int, number string, lines []orderLine) (int64, error) {
	var id int64
	err := f.tx(func(tx *sql.Tx) error {
		if err := tx.QueryRow(f.q(`INSERT INTO orders (number, status) VALUES (?, 'Open') RETURNING id`), number).Scan(&id); err != nil {
			return err
		}
		for _, l := range lines {
			if _, err := tx.Exec(f.q(`INSERT INTO order_lines (order_id, product_id, quantity, shipped, status) VALUES (?, ?, ?, 0, 'Open')`),
				id, l.product, l.quantity); err != nil {
				return err
			}
		}
		sorted := slices.Clone(lines)
		slices.SortFunc(sorted, func(a, b orderLine) int { return a.product - b.product })
		var events []floorEvent
		for _, l := range sorted {
			e, err := f.product(tx, int64(l.product), 0, 0, l.quantity, 0)
			if err != nil {
				return err
			}
			events = append(events, e)
		}
		return f.record(tx, events)
	})
	if err != nil {
		return 0, err
	}
	return id, f.pickingList(id)
}

// pickingList reserves what the order's positions need on the mappings
// with the least stock first; a shortfall reserves nothing.
func (f *mixedFloor) pickingList(order int64) error {
	return f.tx(func(tx *sql.Tx) error {
		if _, err := tx.Exec(f.q(`SELECT id FROM orders WHERE id = ?`+f.forUpdate()), order); err != nil {
			return err
		}
		lines, err := f.lines(tx, `SELECT id, product_id, quantity - shipped FROM order_lines WHERE order_id = ? ORDER BY product_id`, order)
		if err != nil {
			return err
		}
		var events []floorEvent
		for _, l := range lines {
			e, err := f.product(tx, l.product, 0, int(l.open), 0, 0)
			if err != nil {
				return err
			}
			events = append(events, e)
			rows, err := tx.Query(f.q(`SELECT id, stock - reserved FROM mappings WHERE product_id = ? ORDER BY stock, id`+f.forUpdate()), l.product)
			if err != nil {
				return err
			}
			var ids, free []int64
			for rows.Next() {
				var id, n int64
				if err := rows.Scan(&id, &n); err != nil {
					rows.Close()
					return err
				}
				ids, free = append(ids, id), append(free, n)
			}
			if err := rows.Close(); err != nil {
				return err
			}
			need := l.open
			for i := range ids {
				take := min(need, free[i])
				if take <= 0 {
					continue
				}
				need -= take
				if _, err := tx.Exec(f.q(`UPDATE mappings SET reserved = reserved + ? WHERE id = ?`), take, ids[i]); err != nil {
					return err
				}
				if _, err := tx.Exec(f.q(`INSERT INTO reservations (order_id, line_id, mapping_id, quantity) VALUES (?, ?, ?, ?)`), order, l.id, ids[i], take); err != nil {
					return err
				}
			}
			if need > 0 {
				return errShortfall
			}
		}
		if _, err := tx.Exec(f.q(`UPDATE orders SET status = 'In process' WHERE id = ?`), order); err != nil {
			return err
		}
		return f.record(tx, append(events, statusChanged("order.statusChanged", order, "In process", "Open")))
	})
}

// ship takes each position's reserved pieces from their mappings.
func (f *mixedFloor) ship(_ int, order int64) error {
	return f.tx(func(tx *sql.Tx) error {
		var status string
		if err := tx.QueryRow(f.q(`SELECT status FROM orders WHERE id = ?`+f.forUpdate()), order).Scan(&status); err != nil {
			return err
		}
		if status == "Completely delivered" {
			return nil
		}
		lines, err := f.lines(tx, `SELECT id, product_id, quantity - shipped FROM order_lines WHERE order_id = ? ORDER BY product_id`, order)
		if err != nil {
			return err
		}
		type reservation struct{ line, mapping, quantity int64 }
		rows, err := tx.Query(f.q(`SELECT line_id, mapping_id, quantity FROM reservations WHERE order_id = ? ORDER BY mapping_id`), order)
		if err != nil {
			return err
		}
		var reservations []reservation
		for rows.Next() {
			var r reservation
			if err := rows.Scan(&r.line, &r.mapping, &r.quantity); err != nil {
				rows.Close()
				return err
			}
			reservations = append(reservations, r)
		}
		if err := rows.Close(); err != nil {
			return err
		}
		var events []floorEvent
		at := now()
		for _, l := range lines {
			e, err := f.product(tx, l.product, -int(l.open), -int(l.open), -int(l.open), 0)
			if err != nil {
				return err
			}
			events = append(events, e)
			taken := int64(0)
			for _, r := range reservations {
				if r.line != l.id {
					continue
				}
				var stock, bin int64
				if err := tx.QueryRow(f.q(`UPDATE mappings SET stock = stock - ?, reserved = reserved - ? WHERE id = ? RETURNING stock, bin_id`),
					r.quantity, r.quantity, r.mapping).Scan(&stock, &bin); err != nil {
					return err
				}
				if _, err := tx.Exec(f.q(`INSERT INTO ledger (product_id, bin_id, type, quantity, stock_after, order_id, created_at) VALUES (?, ?, 'shipment', ?, ?, ?, ?)`),
					l.product, bin, -r.quantity, stock, order, at); err != nil {
					return err
				}
				taken += r.quantity
			}
			if taken != l.open {
				return fmt.Errorf("order %d: position %d has %d of %d pieces reserved", order, l.id, taken, l.open)
			}
			if _, err := tx.Exec(f.q(`UPDATE order_lines SET shipped = quantity, status = 'Completed' WHERE id = ?`), l.id); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(f.q(`DELETE FROM reservations WHERE order_id = ?`), order); err != nil {
			return err
		}
		if _, err := tx.Exec(f.q(`UPDATE orders SET status = 'Completely delivered' WHERE id = ?`), order); err != nil {
			return err
		}
		return f.record(tx, append(events, statusChanged("order.statusChanged", order, "Completely delivered", status)))
	})
}

func (f *mixedFloor) status(_ int, order int64) error {
	var number, status string
	if err := f.read.QueryRow(f.q(`SELECT number, status FROM orders WHERE id = ?`), order).Scan(&number, &status); err != nil {
		return err
	}
	rows, err := f.read.Query(f.q(`SELECT id, product_id, quantity, shipped, status FROM order_lines WHERE order_id = ? ORDER BY id`), order)
	if err != nil {
		return err
	}
	return drain(rows)
}

// receive creates a purchase order and receives it in full, each line on
// its product's first bin.
func (f *mixedFloor) receive(_ int, number string, lines []orderLine) error {
	sorted := slices.Clone(lines)
	slices.SortFunc(sorted, func(a, b orderLine) int { return a.product - b.product })
	var po int64
	err := f.tx(func(tx *sql.Tx) error {
		if err := tx.QueryRow(f.q(`INSERT INTO purchase_orders (number, status) VALUES (?, 'Open') RETURNING id`), number).Scan(&po); err != nil {
			return err
		}
		var events []floorEvent
		for _, l := range sorted {
			if _, err := tx.Exec(f.q(`INSERT INTO po_lines (po_id, product_id, quantity, received) VALUES (?, ?, ?, 0)`), po, l.product, l.quantity); err != nil {
				return err
			}
			e, err := f.product(tx, int64(l.product), 0, 0, 0, l.quantity)
			if err != nil {
				return err
			}
			events = append(events, e)
		}
		return f.record(tx, events)
	})
	if err != nil {
		return err
	}
	return f.tx(func(tx *sql.Tx) error {
		var status string
		if err := tx.QueryRow(f.q(`SELECT status FROM purchase_orders WHERE id = ?`+f.forUpdate()), po).Scan(&status); err != nil {
			return err
		}
		if status != "Open" {
			return fmt.Errorf("purchase order %d is %s", po, status)
		}
		lines, err := f.lines(tx, `SELECT id, product_id, quantity - received FROM po_lines WHERE po_id = ? ORDER BY product_id`, po)
		if err != nil {
			return err
		}
		var events []floorEvent
		at := now()
		for _, l := range lines {
			e, err := f.product(tx, l.product, int(l.open), 0, 0, -int(l.open))
			if err != nil {
				return err
			}
			events = append(events, e)
			bin := shopBinsOf(int(l.product))[0]
			var stock int64
			if err := tx.QueryRow(f.q(`UPDATE mappings SET stock = stock + ? WHERE bin_id = ? AND product_id = ? RETURNING stock`), l.open, bin, l.product).Scan(&stock); err != nil {
				return err
			}
			if _, err := tx.Exec(f.q(`INSERT INTO ledger (product_id, bin_id, type, quantity, stock_after, created_at) VALUES (?, ?, 'receipt', ?, ?, ?)`),
				l.product, bin, l.open, stock, at); err != nil {
				return err
			}
			if _, err := tx.Exec(f.q(`UPDATE po_lines SET received = quantity WHERE id = ?`), l.id); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(f.q(`UPDATE purchase_orders SET status = 'Received' WHERE id = ?`), po); err != nil {
			return err
		}
		return f.record(tx, append(events, statusChanged("purchaseOrder.statusChanged", po, "Received", status)))
	})
}

func (f *mixedFloor) lowStock(int) error {
	rows, err := f.read.Query(`SELECT id, reorder_point, stock, reserved, outstanding, incoming FROM products
WHERE reorder_point > 0 AND stock - outstanding < reorder_point ORDER BY id LIMIT 50`)
	if err != nil {
		return err
	}
	return drain(rows)
}

func (f *mixedFloor) feed(_ int, after int64) (int64, error) {
	rows, err := f.read.Query(f.q(`SELECT id, type, created_at, data FROM events WHERE id > ? ORDER BY id LIMIT 100`), after)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	last := after
	for rows.Next() {
		var kind, at, data string
		if err := rows.Scan(&last, &kind, &at, &data); err != nil {
			return 0, err
		}
	}
	return last, rows.Err()
}

// drain reads every row, as a client that shows them would.
func drain(rows *sql.Rows) error {
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	dest := make([]any, len(cols))
	for i := range dest {
		dest[i] = new(any)
	}
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
	}
	return rows.Err()
}
