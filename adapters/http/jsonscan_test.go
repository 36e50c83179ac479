package http

import "testing"

// canonical is the RFC 8785 form of s.
func canonical(s string) string {
	c := newJCS([]byte(s))
	defer c.release()
	return string(c.canonical())
}

func TestCanonicalJSONIgnoresKeyOrderAndWhiteSpace(t *testing.T) {
	a := `[{"id": 1, "warehouse": {"code": "W", "id": 2}, "quantity": -3},
	       {"x": [1, {"b": true, "a": null}], "s": "q\"}{,"}]`
	b := `[{"quantity":-3,"warehouse":{"id":2,"code":"W"},"id":1},{"s":"q\"}{,","x":[1,{"a":null,"b":true}]}]`
	want := `[{"id":1,"quantity":-3,"warehouse":{"code":"W","id":2}},{"s":"q\"}{,","x":[1,{"a":null,"b":true}]}]`
	if got := canonical(a); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if canonical(a) != canonical(b) {
		t.Fatal("the same batch written two ways has one canonical form")
	}
}

func TestCanonicalJSONKeepsDifferencesThatMatter(t *testing.T) {
	for _, pair := range [][2]string{
		{`{"quantity":1}`, `{"quantity":2}`},
		{`[1,2]`, `[2,1]`},
		{`{"a":"1"}`, `{"a":1}`},
		{`{"a":{}}`, `{"a":[]}`},
	} {
		if canonical(pair[0]) == canonical(pair[1]) {
			t.Errorf("%s and %s must differ", pair[0], pair[1])
		}
	}
	if got := canonical(`{"\u0061":1}`); got != `{"a":1}` {
		t.Errorf("escaped keys are compared decoded: %s", got)
	}
}
