package warehouse

// Holders are the warehouses that hold the two default flags: the default
// warehouse (stock operations and shipping without a warehouse use it) and
// the default return-shipment warehouse. Both are nil only while no
// warehouse exists. This domain service keeps the rule that the first
// warehouse takes both flags and that exactly one warehouse holds each.
type Holders struct {
	Default, Return *Warehouse
}

// Create validates d and returns the new warehouse with its unknown bin
// location (stored together): every warehouse has one. The first warehouse,
// created while nothing holds the flags, takes them.
func (h Holders) Create(d Details) (*Warehouse, *BinLocation, error) {
	d, err := normalize(d)
	if err != nil {
		return nil, nil, err
	}
	w := &Warehouse{details: d, isDefault: h.Default == nil, isDefaultReturn: h.Return == nil, loadedForSale: d.StockAvailableForSale}
	return w, &BinLocation{code: NullBinLocationCode}, nil
}

// MoveDefault gives w the default flag. It returns the warehouses whose flag
// changed, in the order to store them: the previous holder (cleared) before
// w, since storage allows one holder at a time.
func (h Holders) MoveDefault(w *Warehouse) []*Warehouse {
	return move(h.Default, w, func(x *Warehouse, v bool) { x.isDefault = v })
}

// MoveDefaultReturn gives w the default return-shipment flag, as MoveDefault.
func (h Holders) MoveDefaultReturn(w *Warehouse) []*Warehouse {
	return move(h.Return, w, func(x *Warehouse, v bool) { x.isDefaultReturn = v })
}

func move(holder, w *Warehouse, set func(*Warehouse, bool)) []*Warehouse {
	var changed []*Warehouse
	if holder != nil && holder.id != w.id {
		set(holder, false)
		changed = append(changed, holder)
	}
	set(w, true)
	return append(changed, w)
}
