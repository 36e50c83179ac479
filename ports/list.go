package ports

// FieldType tells the list parser how to read a filter value.
type FieldType int

const (
	TextField FieldType = iota
	IntField
	BoolField
	TimeField
	// DateField is a date, YYYY-MM-DD: values are that text, compared as
	// dates by =, <>, <, <=, >, >=, IN (no LIKE).
	DateField
)

// ListFields are the properties a resource can be filtered and sorted by,
// with their resource prefix (`warehouse.code`).
type ListFields map[string]FieldType

// Filter expressions accepted by lists.
const (
	ExprEqual        = "="
	ExprNotEqual     = "<>"
	ExprLess         = "<"
	ExprLessEqual    = "<="
	ExprGreater      = ">"
	ExprGreaterEqual = ">="
	ExprLike         = "LIKE"
	ExprNotLike      = "NOT LIKE"
	ExprIn           = "IN"
	ExprNotIn        = "NOT IN"
	ExprIsNull       = "IS NULL"
	ExprIsNotNull    = "IS NOT NULL"
)

// Filter is one condition; Values are typed by the field (string, int64,
// bool, time.Time; a DateField's are its text). IN takes several values,
// IS NULL none, the others one.
type Filter struct {
	Property   string
	Expression string
	Values     []any
	Or         bool // joined to the condition before with OR instead of AND
}

// Sort orders by one property.
type Sort struct {
	Property   string
	Descending bool
}

// ListQuery is a validated page request over one resource.
type ListQuery struct {
	Start   int
	Limit   int
	Filters []Filter
	Sorts   []Sort
	// After keeps only the items whose id is greater (0: all), in the
	// default order by id; Start then skips within those. Total ignores it.
	After int64
}

// Page is one page of a list and the number of all matches.
type Page[T any] struct {
	Items []T
	Total int
}

// List fields of every resource; adapters map each to a column.
var (
	WarehouseFields = ListFields{
		"warehouse.id": IntField, "warehouse.code": TextField, "warehouse.name": TextField,
		"warehouse.stockAvailableForSale": BoolField, "warehouse.defaultWarehouse": BoolField,
		"warehouse.defaultReturnShipmentWarehouse": BoolField, "warehouse.nullBinLocationId": IntField,
		"warehouse.contact": TextField, "warehouse.email": TextField, "warehouse.phone": TextField,
		"warehouse.address": TextField, "warehouse.comment": TextField,
	}
	BinLocationFields = ListFields{
		"binLocation.id": IntField, "binLocation.warehouseId": IntField, "binLocation.code": TextField,
	}
	ArticleDetailFields = ListFields{
		"articleDetail.id": IntField, "articleDetail.number": TextField, "articleDetail.name": TextField,
		"articleDetail.reorderPoint": IntField, "articleDetail.belowReorderPoint": BoolField,
		"articleDetail.ean": TextField, "articleDetail.lotTracked": BoolField,
	}
	OrderFields = ListFields{
		"order.id": IntField, "order.number": TextField, "order.status": TextField,
		"order.customerEmail": TextField,
	}
	ReturnFields = ListFields{
		"return.id": IntField, "return.orderId": IntField, "return.createdAt": TimeField,
		"return.user": TextField, "return.restock": BoolField,
	}
	StockLedgerEntryFields = ListFields{
		"stockLedgerEntry.id": IntField, "stockLedgerEntry.articleDetailId": IntField,
		"stockLedgerEntry.warehouseId": IntField, "stockLedgerEntry.binLocationId": IntField,
		"stockLedgerEntry.type": TextField, "stockLedgerEntry.quantity": IntField,
		"stockLedgerEntry.stockAfter": IntField, "stockLedgerEntry.idempotencyKey": TextField,
		"stockLedgerEntry.orderId": IntField, "stockLedgerEntry.orderDetailId": IntField,
		"stockLedgerEntry.user": TextField, "stockLedgerEntry.createdAt": TimeField,
		"stockLedgerEntry.purchaseOrderId": IntField, "stockLedgerEntry.lotNumber": TextField,
		"stockLedgerEntry.transferId": IntField,
	}
	LotFields = ListFields{
		"lot.id": IntField, "lot.articleDetailId": IntField, "lot.number": TextField,
		"lot.bestBefore": DateField, "lot.expired": BoolField,
	}
)
