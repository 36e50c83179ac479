package order_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
)

// validOrder is an order every rule accepts; each case below breaks one thing.
func validOrder() order.NewOrder {
	return order.NewOrder{
		Number:        "10001",
		CustomerEmail: "jane@example.com",
		Details: []order.NewDetail{
			{ArticleDetailID: 7, Quantity: 3},
			{ArticleDetailID: 9, Quantity: 2},
		},
	}
}

// stored builds an order as the storage would load it.
func stored(t *testing.T, status string, details ...order.DetailRecord) *order.Order {
	t.Helper()
	o, err := order.UnmarshalOrderFromDatabase(1, "10001", "jane@example.com", status, details)
	if err != nil {
		t.Fatalf("UnmarshalOrderFromDatabase: %v", err)
	}
	return o
}

func requireInvalid(t *testing.T, err error, wantMessage string) {
	t.Helper()
	if err == nil {
		t.Fatalf("want an invalid error %q, got none", wantMessage)
	}
	if k := errs.KindOf(err); k != errs.Invalid {
		t.Fatalf("want kind invalid, got %v (%v)", k, err)
	}
	if !strings.Contains(err.Error(), wantMessage) {
		t.Fatalf("want message containing %q, got %q", wantMessage, err.Error())
	}
}

// snapshot captures everything observable about an order, to prove that a
// refused operation changed nothing.
type snapshot struct {
	Status  order.Status
	Details []detailState
}

type detailState struct {
	ID       int64
	Shipped  int
	Status   order.DetailStatus
	Quantity int
}

func snap(o *order.Order) snapshot {
	s := snapshot{Status: o.Status()}
	for _, d := range o.Details() {
		s.Details = append(s.Details, detailState{ID: d.ID(), Shipped: d.Shipped(), Status: d.Status(), Quantity: d.Quantity()})
	}
	return s
}

func TestNewAcceptsAValidOrder(t *testing.T) {
	p := validOrder()
	p.ID = 42
	p.Number = "  10001 "
	p.CustomerEmail = " jane@example.com "
	p.Details[0].ID = 5
	p.Details[0].Shipped = 1
	p.Details[0].Status = "In progress"
	p.Details[1].Status = "Cancelled"
	p.Status = "In process"

	o, err := order.New(p)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if o.ID() != 42 || o.Number() != "10001" || o.CustomerEmail() != "jane@example.com" || o.Status() != order.StatusInProcess {
		t.Fatalf("order = %d %q %q %q", o.ID(), o.Number(), o.CustomerEmail(), o.Status())
	}
	ds := o.Details()
	if len(ds) != 2 {
		t.Fatalf("want 2 details, got %d", len(ds))
	}
	d := ds[0]
	if d.ID() != 5 || d.ArticleDetailID() != 7 || d.Quantity() != 3 || d.Shipped() != 1 || d.Remaining() != 2 || d.Status() != order.DetailInProgress {
		t.Fatalf("detail = %+v", snap(o).Details[0])
	}
	if ds[1].Status() != order.DetailCancelled {
		t.Fatalf("second detail status = %q", ds[1].Status())
	}
}

func TestNewDefaults(t *testing.T) {
	p := validOrder()
	p.CustomerEmail = ""
	o, err := order.New(p)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	if o.ID() != 0 {
		t.Errorf("an omitted id stays 0 until storage assigns one, got %d", o.ID())
	}
	if o.Status() != order.StatusOpen {
		t.Errorf("status defaults to Open, got %q", o.Status())
	}
	if o.CustomerEmail() != "" {
		t.Errorf("customer email is optional, got %q", o.CustomerEmail())
	}
	for _, d := range o.Details() {
		if d.Status() != order.DetailOpen || d.Shipped() != 0 {
			t.Errorf("detail defaults to Open with nothing shipped, got %q shipped %d", d.Status(), d.Shipped())
		}
	}
}

func TestNewRejects(t *testing.T) {
	tests := []struct {
		name     string
		change   func(p *order.NewOrder)
		property string
		message  string
	}{
		{"a negative id", func(p *order.NewOrder) { p.ID = -1 }, "id", "must be positive"},
		{"an empty number", func(p *order.NewOrder) { p.Number = "" }, "number", "must not be empty"},
		{"a blank number", func(p *order.NewOrder) { p.Number = "   " }, "number", "must not be empty"},
		{"a number over 255 characters", func(p *order.NewOrder) { p.Number = strings.Repeat("ä", 256) }, "number", "at most 255"},
		{"an email that is no address", func(p *order.NewOrder) { p.CustomerEmail = "jane" }, "customerEmail", "email address"},
		{"an email with a display name", func(p *order.NewOrder) { p.CustomerEmail = "Jane <jane@example.com>" }, "customerEmail", "email address"},
		{"an unknown order status", func(p *order.NewOrder) { p.Status = "Shipped" }, "status", `allowed: "Open", "In process"`},
		{"a status in the wrong case", func(p *order.NewOrder) { p.Status = "open" }, "status", "unknown order status"},
		{"an order without details", func(p *order.NewOrder) { p.Details = nil }, "details", "at least one"},
		{"a negative detail id", func(p *order.NewOrder) { p.Details[1].ID = -3 }, "details[1].id", "must be positive"},
		{"a duplicate detail id", func(p *order.NewOrder) { p.Details[0].ID = 4; p.Details[1].ID = 4 }, "details[1].id", "duplicates details[0].id"},
		{"a missing article detail", func(p *order.NewOrder) { p.Details[0].ArticleDetailID = 0 }, "details[0].articleDetailId", "must be positive"},
		{"a quantity of 0", func(p *order.NewOrder) { p.Details[1].Quantity = 0 }, "details[1].quantity", "at least 1"},
		{"a negative quantity", func(p *order.NewOrder) { p.Details[1].Quantity = -2 }, "details[1].quantity", "at least 1"},
		{"a negative shipped quantity", func(p *order.NewOrder) { p.Details[0].Shipped = -1 }, "details[0].shipped", "must not be negative"},
		{"more shipped than ordered", func(p *order.NewOrder) { p.Details[0].Shipped = 4 }, "details[0].shipped", "must not exceed the quantity 3"},
		{"an unknown detail status", func(p *order.NewOrder) { p.Details[0].Status = "Done" }, "details[0].status", `allowed: "Open", "In progress", "Completed", "Cancelled"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := validOrder()
			tt.change(&p)
			o, err := order.New(p)
			if o != nil {
				t.Fatalf("want no order, got one")
			}
			e, ok := errs.As(err)
			if !ok || e.Kind != errs.Invalid {
				t.Fatalf("want an invalid *errs.Error, got %v", err)
			}
			if len(e.Fields) != 1 {
				t.Fatalf("want exactly one failing property, got %+v", e.Fields)
			}
			if e.Fields[0].Property != tt.property || !strings.Contains(e.Fields[0].Message, tt.message) {
				t.Fatalf("want %s: …%s…, got %+v", tt.property, tt.message, e.Fields[0])
			}
		})
	}
}

func TestNewReportsEveryBrokenRuleAtOnce(t *testing.T) {
	p := validOrder()
	p.Number = ""
	p.Details[0].Quantity = 0
	p.Details[1].ArticleDetailID = -1
	_, err := order.New(p)
	e, ok := errs.As(err)
	if !ok {
		t.Fatalf("want *errs.Error, got %v", err)
	}
	var props []string
	for _, f := range e.Fields {
		props = append(props, f.Property)
	}
	want := []string{"number", "details[0].quantity", "details[1].articleDetailId"}
	if !reflect.DeepEqual(props, want) {
		t.Fatalf("properties = %v, want %v", props, want)
	}
}

func TestNewAcceptsAcceptableEdges(t *testing.T) {
	tests := []struct {
		name   string
		change func(p *order.NewOrder)
	}{
		{"a number of exactly 255 characters", func(p *order.NewOrder) { p.Number = strings.Repeat("ä", 255) }},
		{"everything already shipped", func(p *order.NewOrder) { p.Details[0].Shipped = 3 }},
		{"detail ids left to the storage on several positions", func(p *order.NewOrder) { p.Details[0].ID = 0; p.Details[1].ID = 0 }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := validOrder()
			tt.change(&p)
			if _, err := order.New(p); err != nil {
				t.Fatalf("New: %v", err)
			}
		})
	}
}

// everyStatus is each status as a shop spells it, with what the domain
// makes of it ("" is an order pushed without one).
var everyStatus = []struct {
	status string
	want   order.Status
}{
	{"", order.StatusOpen},
	{"Open", order.StatusOpen},
	{"In process", order.StatusInProcess},
	{"Ready for delivery", order.StatusReadyForDelivery},
	{"Partially delivered", order.StatusPartiallyDelivered},
	{"Completely delivered", order.StatusCompletelyDelivered},
	{"Completed", order.StatusCompleted},
	{"Cancelled", order.StatusCancelled},
	{"Clarification required", order.StatusClarificationRequired},
}

// An order may be pushed in any status the domain knows, positions as they
// are: the shop decides where its order stands. The table names every
// status status.go declares, and what New makes of it.
func TestNewAcceptsEveryOrderStatus(t *testing.T) {
	covered := map[order.Status]bool{}
	for _, tt := range everyStatus {
		covered[tt.want] = true
		p := validOrder()
		p.Status = tt.status
		o, err := order.New(p)
		if err != nil {
			t.Errorf("New with status %q: %v", tt.status, err)
			continue
		}
		if o.Status() != tt.want {
			t.Errorf("New with status %q: status %q, want %q", tt.status, o.Status(), tt.want)
		}
	}
	for _, st := range declaredStatuses(t) {
		if !covered[order.Status(st)] {
			t.Errorf("status %q is declared in status.go but not in this table", st)
		}
	}
}

// declaredStatuses reads the values of the Status constants in status.go,
// so that a status added there and forgotten here fails the test.
func declaredStatuses(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "status.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, decl := range f.Decls {
		gen, ok := decl.(*ast.GenDecl)
		if !ok || gen.Tok != token.CONST {
			continue
		}
		for _, spec := range gen.Specs {
			vs := spec.(*ast.ValueSpec)
			if typ, ok := vs.Type.(*ast.Ident); !ok || typ.Name != "Status" {
				continue
			}
			for _, v := range vs.Values {
				lit, ok := v.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Fatalf("a Status constant that is no string literal: %#v", v)
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				out = append(out, s)
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no Status constants found in status.go")
	}
	return out
}

func TestParseStatus(t *testing.T) {
	for _, tt := range everyStatus {
		got, err := order.ParseStatus(tt.status)
		if err != nil || got != tt.want {
			t.Errorf("ParseStatus(%q) = %q, %v; want %q", tt.status, got, err, tt.want)
		}
	}
	for _, in := range []string{"open", " Open", "Canceled", "In progress"} {
		_, err := order.ParseStatus(in)
		requireInvalid(t, err, `"Clarification required"`)
	}
}

func TestParseDetailStatus(t *testing.T) {
	tests := []struct {
		in   string
		want order.DetailStatus
	}{
		{"", order.DetailOpen},
		{"Open", order.DetailOpen},
		{"In progress", order.DetailInProgress},
		{"Completed", order.DetailCompleted},
		{"Cancelled", order.DetailCancelled},
	}
	for _, tt := range tests {
		got, err := order.ParseDetailStatus(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseDetailStatus(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	for _, in := range []string{"completed", "In process", "Completely delivered"} {
		_, err := order.ParseDetailStatus(in)
		requireInvalid(t, err, `allowed: "Open", "In progress", "Completed", "Cancelled"`)
	}
}

func TestUnmarshalOrderFromDatabase(t *testing.T) {
	o := stored(t, "Partially delivered",
		order.DetailRecord{ID: 11, ArticleDetailID: 7, Quantity: 3, Shipped: 1, Status: "In progress"})
	if o.ID() != 1 || o.Status() != order.StatusPartiallyDelivered {
		t.Fatalf("order = %d %q", o.ID(), o.Status())
	}
	if d, ok := o.Detail(11); !ok || d.Shipped() != 1 || d.Status() != order.DetailInProgress {
		t.Fatalf("detail 11 = %v %v", d, ok)
	}

	corrupt := []struct {
		name    string
		id      int64
		details []order.DetailRecord
	}{
		{"an order without id", 0, []order.DetailRecord{{ID: 11, ArticleDetailID: 7, Quantity: 1}}},
		{"a detail without id", 1, []order.DetailRecord{{ArticleDetailID: 7, Quantity: 1}}},
		{"a detail shipped beyond its quantity", 1, []order.DetailRecord{{ID: 11, ArticleDetailID: 7, Quantity: 1, Shipped: 2}}},
	}
	for _, tt := range corrupt {
		t.Run("corrupt data is an internal error: "+tt.name, func(t *testing.T) {
			_, err := order.UnmarshalOrderFromDatabase(tt.id, "10001", "", "Open", tt.details)
			if err == nil || errs.KindOf(err) != errs.Internal {
				t.Fatalf("want an internal error, got %v", err)
			}
		})
	}
}

func TestAssignIDs(t *testing.T) {
	t.Run("fills the ids the storage generated", func(t *testing.T) {
		p := validOrder()
		p.Details[1].ID = 20 // chosen by the client
		o, _ := order.New(p)
		if err := o.AssignIDs(100, []int64{19, 20}); err != nil {
			t.Fatalf("AssignIDs: %v", err)
		}
		ds := o.Details()
		if o.ID() != 100 || ds[0].ID() != 19 || ds[1].ID() != 20 {
			t.Fatalf("ids = %d [%d %d]", o.ID(), ds[0].ID(), ds[1].ID())
		}
	})

	refused := []struct {
		name      string
		orderID   int64
		clientID  int64
		detailIDs []int64
	}{
		{"a zero order id", 0, 0, []int64{1, 2}},
		{"an order id other than the client's", 8, 7, []int64{1, 2}},
		{"too few detail ids", 100, 0, []int64{1}},
		{"a zero detail id", 100, 0, []int64{1, 0}},
		{"the same detail id twice", 100, 0, []int64{3, 3}},
	}
	for _, tt := range refused {
		t.Run("refuses "+tt.name, func(t *testing.T) {
			p := validOrder()
			p.ID = tt.clientID
			o, _ := order.New(p)
			err := o.AssignIDs(tt.orderID, tt.detailIDs)
			if err == nil || errs.KindOf(err) != errs.Internal {
				t.Fatalf("want an internal error, got %v", err)
			}
			if o.ID() != tt.clientID || o.Details()[0].ID() != 0 {
				t.Fatalf("a refused assignment changed ids")
			}
		})
	}

	t.Run("refuses to renumber a detail the client chose", func(t *testing.T) {
		p := validOrder()
		p.Details[0].ID = 5
		o, _ := order.New(p)
		if err := o.AssignIDs(100, []int64{6, 7}); err == nil {
			t.Fatal("want an error")
		}
	})
}

func TestFullShipment(t *testing.T) {
	tests := []struct {
		name        string
		status      string
		details     []order.DetailRecord
		wantPlan    []order.ShipLine
		wantChanged bool
		wantAfter   snapshot
	}{
		{
			name:   "an open order ships every remaining piece",
			status: "Open",
			details: []order.DetailRecord{
				{ID: 11, ArticleDetailID: 7, Quantity: 3},
				{ID: 12, ArticleDetailID: 9, Quantity: 2},
			},
			wantPlan:    []order.ShipLine{{DetailID: 11, ArticleDetailID: 7, Quantity: 3}, {DetailID: 12, ArticleDetailID: 9, Quantity: 2}},
			wantChanged: true,
			wantAfter: snapshot{Status: order.StatusCompletelyDelivered, Details: []detailState{
				{ID: 11, Shipped: 3, Quantity: 3, Status: order.DetailCompleted},
				{ID: 12, Shipped: 2, Quantity: 2, Status: order.DetailCompleted},
			}},
		},
		{
			name:   "a partially shipped order ships only what remains",
			status: "Partially delivered",
			details: []order.DetailRecord{
				{ID: 11, ArticleDetailID: 7, Quantity: 3, Shipped: 1, Status: "In progress"},
				{ID: 12, ArticleDetailID: 9, Quantity: 2, Shipped: 2, Status: "Completed"},
			},
			wantPlan:    []order.ShipLine{{DetailID: 11, ArticleDetailID: 7, Quantity: 2}},
			wantChanged: true,
			wantAfter: snapshot{Status: order.StatusCompletelyDelivered, Details: []detailState{
				{ID: 11, Shipped: 3, Quantity: 3, Status: order.DetailCompleted},
				{ID: 12, Shipped: 2, Quantity: 2, Status: order.DetailCompleted},
			}},
		},
		{
			name:   "cancelled positions are skipped and stay cancelled",
			status: "Open",
			details: []order.DetailRecord{
				{ID: 11, ArticleDetailID: 7, Quantity: 3},
				{ID: 12, ArticleDetailID: 9, Quantity: 2, Status: "Cancelled"},
			},
			wantPlan:    []order.ShipLine{{DetailID: 11, ArticleDetailID: 7, Quantity: 3}},
			wantChanged: true,
			wantAfter: snapshot{Status: order.StatusCompletelyDelivered, Details: []detailState{
				{ID: 11, Shipped: 3, Quantity: 3, Status: order.DetailCompleted},
				{ID: 12, Shipped: 0, Quantity: 2, Status: order.DetailCancelled},
			}},
		},
		{
			name:   "an already fully shipped order is a no-op",
			status: "Completed",
			details: []order.DetailRecord{
				{ID: 11, ArticleDetailID: 7, Quantity: 3, Shipped: 3, Status: "Open"},
				{ID: 12, ArticleDetailID: 9, Quantity: 2, Status: "Cancelled"},
			},
			wantPlan:    []order.ShipLine{},
			wantChanged: false,
			wantAfter: snapshot{Status: order.StatusCompleted, Details: []detailState{
				{ID: 11, Shipped: 3, Quantity: 3, Status: order.DetailOpen},
				{ID: 12, Shipped: 0, Quantity: 2, Status: order.DetailCancelled},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := stored(t, tt.status, tt.details...)
			plan, err := o.PlanFullShipment()
			if err != nil {
				t.Fatalf("PlanFullShipment: %v", err)
			}
			if !reflect.DeepEqual(plan, tt.wantPlan) {
				t.Fatalf("plan = %+v, want %+v", plan, tt.wantPlan)
			}
			if changed := o.ShipFully(); changed != tt.wantChanged {
				t.Fatalf("ShipFully changed = %v, want %v", changed, tt.wantChanged)
			}
			if got := snap(o); !reflect.DeepEqual(got, tt.wantAfter) {
				t.Fatalf("after = %+v, want %+v", got, tt.wantAfter)
			}
			if again := o.ShipFully(); again {
				t.Fatal("shipping a fully shipped order again must change nothing")
			}
		})
	}
}

func TestFullShipmentOfACancelledOrderIsRefused(t *testing.T) {
	o := stored(t, "Cancelled", order.DetailRecord{ID: 11, ArticleDetailID: 7, Quantity: 3})
	before := snap(o)

	plan, err := o.PlanFullShipment()
	requireInvalid(t, err, "order 10001 is cancelled")
	if plan != nil {
		t.Fatalf("want no plan, got %+v", plan)
	}
	if o.ShipFully() {
		t.Fatal("ShipFully must not ship a cancelled order")
	}
	if got := snap(o); !reflect.DeepEqual(got, before) {
		t.Fatalf("a cancelled order changed: %+v", got)
	}
}

func TestShipDetail(t *testing.T) {
	type step struct {
		detailID int64
		quantity int
	}
	tests := []struct {
		name      string
		steps     []step
		wantAfter snapshot
	}{
		{
			name:  "a part of a position makes the order partially delivered",
			steps: []step{{11, 1}},
			wantAfter: snapshot{Status: order.StatusPartiallyDelivered, Details: []detailState{
				{ID: 11, Shipped: 1, Quantity: 3, Status: order.DetailOpen},
				{ID: 12, Shipped: 0, Quantity: 2, Status: order.DetailOpen},
				{ID: 13, Shipped: 0, Quantity: 4, Status: order.DetailCancelled},
			}},
		},
		{
			name:  "a fully shipped position becomes Completed while others remain",
			steps: []step{{11, 1}, {11, 2}},
			wantAfter: snapshot{Status: order.StatusPartiallyDelivered, Details: []detailState{
				{ID: 11, Shipped: 3, Quantity: 3, Status: order.DetailCompleted},
				{ID: 12, Shipped: 0, Quantity: 2, Status: order.DetailOpen},
				{ID: 13, Shipped: 0, Quantity: 4, Status: order.DetailCancelled},
			}},
		},
		{
			name:  "the order is completely delivered once every non-cancelled position is complete",
			steps: []step{{11, 3}, {12, 1}, {12, 1}},
			wantAfter: snapshot{Status: order.StatusCompletelyDelivered, Details: []detailState{
				{ID: 11, Shipped: 3, Quantity: 3, Status: order.DetailCompleted},
				{ID: 12, Shipped: 2, Quantity: 2, Status: order.DetailCompleted},
				{ID: 13, Shipped: 0, Quantity: 4, Status: order.DetailCancelled},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := stored(t, "In process",
				order.DetailRecord{ID: 11, ArticleDetailID: 7, Quantity: 3},
				order.DetailRecord{ID: 12, ArticleDetailID: 9, Quantity: 2},
				order.DetailRecord{ID: 13, ArticleDetailID: 5, Quantity: 4, Status: "Cancelled"},
			)
			for _, s := range tt.steps {
				if err := o.ShipDetail(s.detailID, s.quantity); err != nil {
					t.Fatalf("ShipDetail(%d, %d): %v", s.detailID, s.quantity, err)
				}
			}
			if got := snap(o); !reflect.DeepEqual(got, tt.wantAfter) {
				t.Fatalf("after = %+v, want %+v", got, tt.wantAfter)
			}
		})
	}
}

func TestShipDetailRefusesAndChangesNothing(t *testing.T) {
	tests := []struct {
		name     string
		status   string
		detailID int64
		quantity int
		message  string
	}{
		{"more than remains", "Partially delivered", 11, 5, "quantity 5 exceeds the remaining quantity 2 of order detail 11"},
		{"anything of a fully shipped position", "Partially delivered", 12, 1, "quantity 1 exceeds the remaining quantity 0 of order detail 12"},
		{"a quantity of 0", "Partially delivered", 11, 0, "quantity must be at least 1"},
		{"a negative quantity", "Partially delivered", 11, -1, "quantity must be at least 1"},
		{"an unknown order detail", "Partially delivered", 99, 1, "order 10001 has no order detail 99"},
		{"a cancelled position", "Partially delivered", 13, 1, "order detail 13 is cancelled"},
		{"a position of a cancelled order", "Cancelled", 11, 1, "order 10001 is cancelled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := stored(t, tt.status,
				order.DetailRecord{ID: 11, ArticleDetailID: 7, Quantity: 3, Shipped: 1},
				order.DetailRecord{ID: 12, ArticleDetailID: 9, Quantity: 2, Shipped: 2, Status: "Completed"},
				order.DetailRecord{ID: 13, ArticleDetailID: 5, Quantity: 4, Status: "Cancelled"},
			)
			before := snap(o)
			requireInvalid(t, o.ShipDetail(tt.detailID, tt.quantity), tt.message)
			if got := snap(o); !reflect.DeepEqual(got, before) {
				t.Fatalf("a refused shipment changed the order: %+v, was %+v", got, before)
			}
		})
	}
}

func TestOutstanding(t *testing.T) {
	details := []order.DetailRecord{
		{ID: 11, ArticleDetailID: 7, Quantity: 3, Shipped: 1},
		{ID: 12, ArticleDetailID: 7, Quantity: 4},
		{ID: 13, ArticleDetailID: 9, Quantity: 2, Shipped: 2, Status: "Completed"},
		{ID: 14, ArticleDetailID: 5, Quantity: 6, Status: "Cancelled"},
	}
	outstanding := func(o *order.Order) map[int64]int {
		out := map[int64]int{}
		for _, d := range o.Details() {
			out[d.ID()] = o.Outstanding(d)
		}
		return out
	}
	tests := []struct {
		name   string
		status string
		want   map[int64]int
	}{
		{"a position still has to ship its remaining quantity unless it is cancelled", "Partially delivered", map[int64]int{11: 2, 12: 4, 13: 0, 14: 0}},
		{"a cancelled order holds back nothing", "Cancelled", map[int64]int{11: 0, 12: 0, 13: 0, 14: 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := outstanding(stored(t, tt.status, details...)); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Outstanding = %v, want %v", got, tt.want)
			}
		})
	}

	t.Run("a fully shipped order holds back nothing", func(t *testing.T) {
		o := stored(t, "Open", details...)
		o.ShipFully()
		if got := outstanding(o); !reflect.DeepEqual(got, map[int64]int{11: 0, 12: 0, 13: 0, 14: 0}) {
			t.Fatalf("Outstanding = %v, want nothing", got)
		}
	})
}

func TestStatusMail(t *testing.T) {
	o := stored(t, "Open",
		order.DetailRecord{ID: 11, ArticleDetailID: 7, Quantity: 3, Shipped: 1},
		order.DetailRecord{ID: 12, ArticleDetailID: 9, Quantity: 2, Status: "Cancelled"},
	)
	o.ShipFully()

	subject, body := order.StatusMail(o)
	if subject != "Your order 10001 is now Completely delivered" {
		t.Fatalf("subject = %q", subject)
	}
	want := "Hello,\n\n" +
		"the status of your order 10001 has changed to: Completely delivered.\n\n" +
		"Positions:\n" +
		"- article 7: 3 of 3 shipped (Completed)\n" +
		"- article 9: 0 of 2 shipped (Cancelled)\n" +
		"\nThank you for your order.\n"
	if body != want {
		t.Fatalf("body =\n%s\nwant\n%s", body, want)
	}
	if s2, b2 := order.StatusMail(o); s2 != subject || b2 != body {
		t.Fatal("the same order must always give the same mail")
	}
}

func TestDetailsCannotBeRearrangedFromOutside(t *testing.T) {
	o := stored(t, "Open", order.DetailRecord{ID: 11, ArticleDetailID: 7, Quantity: 3})
	ds := o.Details()
	ds[0] = nil
	if o.Details()[0] == nil {
		t.Fatal("Details must return a copy of the slice")
	}
}
