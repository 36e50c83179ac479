package console

import (
	"net/url"
	"reflect"
	"testing"

	"github.com/shopstock/inventory/domain/order"
)

func TestWhatWasPickedLivesInTheAddressOfItsList(t *testing.T) {
	list := []order.Pick{
		{OrderDetailID: 1, BinLocationID: 11, BinLocationCode: "A-01", Quantity: 3},
		{OrderDetailID: 2, BinLocationID: 12, BinLocationCode: "A-02", Quantity: 1},
	}
	st, changed := readPickState(url.Values{"v": {listSignature(list)}, "p": {"3.1"}}, list)
	if changed || !reflect.DeepEqual(st.Picked, []int{3, 1}) || st.String() != "3.1" {
		t.Fatalf("read %+v (changed %v)", st, changed)
	}
	for _, q := range []url.Values{
		{"v": {"other"}, "p": {"2.1"}},
		{"v": {listSignature(list)}, "p": {"2"}},
		{"v": {listSignature(list)}, "p": {"4.0"}},
		{"v": {listSignature(list)}, "p": {"x.0"}},
	} {
		if st, changed := readPickState(q, list); !changed || !reflect.DeepEqual(st.Picked, []int{0, 0}) {
			t.Errorf("%v read as %+v (changed %v)", q, st, changed)
		}
	}
	if i := st.open(list, 0); i != -1 {
		t.Errorf("every pick done, yet %d is open", i)
	}

	// After a short pick the list is another: what was picked of a
	// position on a bin stays picked, up to what the list holds there now,
	// and the new pick on A-03 is open.
	after := []order.Pick{
		{OrderDetailID: 1, BinLocationID: 11, Quantity: 2},
		{OrderDetailID: 2, BinLocationID: 12, Quantity: 1},
		{OrderDetailID: 1, BinLocationID: 13, Quantity: 1},
	}
	next := st.carried(list, after)
	if next.Signature != listSignature(after) || !reflect.DeepEqual(next.Picked, []int{2, 1, 0}) || next.open(after, 0) != 2 {
		t.Errorf("carried %+v", next)
	}
}
