package order

// Demand is what the order still has to ship, per article detail: the sum
// of Outstanding over its positions. A product's availableStock is its
// stock for sale less the demand of every order.
func (o *Order) Demand() map[int64]int {
	out := make(map[int64]int, len(o.details))
	for _, d := range o.details {
		if n := o.Outstanding(d); n > 0 {
			out[d.articleDetailID] += n
		}
	}
	return out
}

// demandChange is what the order's demand changed by since before, per
// article detail (before is what Demand said then; nil for a new order).
// Products whose demand did not change are left out.
func (o *Order) demandChange(before map[int64]int) map[int64]int {
	now := o.Demand()
	out := make(map[int64]int)
	for id, n := range now {
		if d := n - before[id]; d != 0 {
			out[id] = d
		}
	}
	for id, n := range before {
		if _, ok := now[id]; !ok && n != 0 {
			out[id] = -n
		}
	}
	return out
}
