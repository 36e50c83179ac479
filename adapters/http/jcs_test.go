package http

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
)

// The examples are RFC 8785's own (section 3.2.2, 3.2.3 and appendix B).

func TestCanonicalJSONIsRFC8785(t *testing.T) {
	in := `{
	  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
	  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
	  "literals": [null, true, false]
	}`
	want := `{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`
	if got := canonical(in); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestCanonicalJSONSortsKeysByUTF16CodeUnits(t *testing.T) {
	in := `{
	  "\u20ac": "Euro Sign",
	  "\r": "Carriage Return",
	  "\ufb33": "Hebrew Letter Dalet With Dagesh",
	  "1": "One",
	  "\ud83d\ude00": "Emoji: Grinning Face",
	  "\u0080": "Control",
	  "\u00f6": "Latin Small Letter O With Diaeresis"
	}`
	// U+1F600 sorts before U+FB33: in UTF-16 it starts with the surrogate
	// 0xD83D, although its UTF-8 bytes sort after.
	want := "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"ö\":\"Latin Small Letter O With Diaeresis\"," +
		"\"€\":\"Euro Sign\",\"😀\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}"
	if got := canonical(in); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if got := canonical(`{"b":1,"a":2,"ab":3,"":4,"B":5}`); got != `{"":4,"B":5,"a":2,"ab":3,"b":1}` {
		t.Errorf("ASCII keys: %s", got)
	}
}

func TestCanonicalJSONWritesNumbersAsECMAScriptDoes(t *testing.T) {
	for bits, want := range map[uint64]string{
		0x0000000000000000: "0",
		0x8000000000000000: "0",
		0x0000000000000001: "5e-324",
		0x8000000000000001: "-5e-324",
		0x7fefffffffffffff: "1.7976931348623157e+308",
		0xffefffffffffffff: "-1.7976931348623157e+308",
		0x4340000000000000: "9007199254740992",
		0xc340000000000000: "-9007199254740992",
		0x4430000000000000: "295147905179352830000",
		0x44b52d02c7e14af5: "9.999999999999997e+22",
		0x44b52d02c7e14af6: "1e+23",
		0x44b52d02c7e14af7: "1.0000000000000001e+23",
		0x444b1ae4d6e2ef4e: "999999999999999700000",
		0x444b1ae4d6e2ef4f: "999999999999999900000",
		0x444b1ae4d6e2ef50: "1e+21",
		0x3eb0c6f7a0b5ed8c: "9.999999999999997e-7",
		0x3eb0c6f7a0b5ed8d: "0.000001",
		0x41b3de4355555553: "333333333.3333332",
		0x41b3de4355555554: "333333333.33333325",
		0x41b3de4355555555: "333333333.3333333",
		0x41b3de4355555556: "333333333.3333334",
		0x41b3de4355555557: "333333333.33333343",
		0xbecbf647612f3696: "-0.0000033333333333333333",
		0x43143ff3c1cb0959: "1424953923781206.2",
	} {
		f := math.Float64frombits(bits)
		for _, written := range []string{strconv.FormatFloat(f, 'g', -1, 64), strconv.FormatFloat(f, 'e', 20, 64)} {
			if got := canonical("[" + written + "]"); got != "["+want+"]" {
				t.Errorf("%#016x written %s: got %s, want %s", bits, written, got, want)
			}
		}
	}
	for written, want := range map[string]string{
		"1": "1", "1.0": "1", "1.000": "1", "1e0": "1", "10E-1": "1", "0.1e1": "1",
		"1e2": "100", "100": "100", "1E+2": "100",
		"-0": "0", "-0.0": "0", "0e5": "0",
		"-3": "-3", "-3.50": "-3.5", "123456789012345678": "123456789012345680",
	} {
		if got := canonical(`{"q":` + written + `}`); got != `{"q":`+want+`}` {
			t.Errorf("%s: got %s, want %s", written, got, want)
		}
	}
}

func TestCanonicalJSONResolvesAndReEscapesStrings(t *testing.T) {
	for written, want := range map[string]string{
		`"\u0041"`:        `"A"`,
		`"\u00e4"`:        `"ä"`,
		`"ä"`:             `"ä"`,
		`"\/"`:            `"/"`,
		`"\u001f\u0008"`:  `"\u001f\b"`,
		`"\u000A\t"`:      `"\n\t"`,
		`"\"\\"`:          `"\"\\"`,
		`"\u003c&>"`:      `"<&>"`,
		`"\ud83d\ude00"`:  `"😀"`,
		`"\u2028"`:        "\"\u2028\"",
		`"plain ascii"`:   `"plain ascii"`,
		`"\u007f\u0080x"`: "\"\u007f\u0080x\"",
	} {
		if got := canonical(written); got != want {
			t.Errorf("%s: got %s, want %s", written, got, want)
		}
	}
	if got := canonical(`{"\u0061":"\u0041","b":"B"}`); got != `{"a":"A","b":"B"}` {
		t.Errorf("escaped keys and values: %s", got)
	}
}

func TestFingerprintIsTheSameForEquivalentBatches(t *testing.T) {
	a := `[{"articleDetailId":1,"quantity":1,"binLocation":{"code":"A","warehouseId":2}}]`
	for _, b := range []string{
		`[ { "quantity" : 1.0, "articleDetailId" : 1e0, "binLocation" : { "warehouseId" : 2, "code" : "\u0041" } } ]`,
		`[{"binLocation":{"warehouseId":20e-1,"code":"A"},"quantity":10E-1,"articleDetailId":1.00}]`,
	} {
		if fingerprint([]byte(a)) != fingerprint([]byte(b)) {
			t.Errorf("%s and %s have different fingerprints", a, b)
		}
	}
	if fingerprint([]byte(a)) == fingerprint([]byte(strings.Replace(a, `"quantity":1`, `"quantity":2`, 1))) {
		t.Error("a different quantity has the same fingerprint")
	}
}

// TestCanonicalJSONAgreesWithEncodingJSON checks documents whose canonical
// form encoding/json also writes: maps sort by UTF-8 bytes, which for ASCII
// keys is the UTF-16 order, and floats are written as ECMAScript does.
func TestCanonicalJSONAgreesWithEncodingJSON(t *testing.T) {
	for _, doc := range []string{
		thousandOperationsJSON(),
		`{"z":{"y":[{"c":3,"b":[2.5,{"k":"v","j":null}],"a":1}],"x":"q\"}{,"},"a":[[],{}]}`,
		deeplyNested(200, 8, true),
	} {
		var v any
		if err := json.Unmarshal([]byte(doc), &v); err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		if got := canonical(doc); got != strings.TrimSuffix(want.String(), "\n") {
			t.Errorf("canonical form differs from encoding/json's for %.80s…", doc)
		}
	}
}

func thousandOperationsJSON() string { return string(thousandOperations()) }

// deeplyNested is an object nested depth deep, each level with a filler of
// pad bytes; with unsorted every level's keys are out of order.
func deeplyNested(depth, pad int, unsorted bool) string {
	var b strings.Builder
	filler := strings.Repeat("x", pad)
	for range depth {
		if unsorted {
			b.WriteString(`{"b":"` + filler + `","a":`)
		} else {
			b.WriteString(`{"a":"` + filler + `","b":`)
		}
	}
	b.WriteString("1")
	b.WriteString(strings.Repeat("}", depth))
	return b.String()
}

// flatOfSize is an array of small objects about size bytes long.
func flatOfSize(size, pad int) string {
	var b strings.Builder
	filler := strings.Repeat("x", pad)
	b.WriteString("[")
	for b.Len() < size {
		if b.Len() > 1 {
			b.WriteString(",")
		}
		b.WriteString(`{"b":"` + filler + `","a":1}`)
	}
	b.WriteString("]")
	return b.String()
}

// TestCanonicalJSONIsLinearInTheDepth compares a body nested 10000 deep (the
// most json.Valid admits) with a flat one of the same size. Rescanning each
// nested span made the deep one cost thousands of times more; reading once,
// it costs about the same. The bound is loose on purpose: it tells linear
// from quadratic, not fast from slow.
func TestCanonicalJSONIsLinearInTheDepth(t *testing.T) {
	deep := []byte(deeplyNested(10000, 200, true))
	flat := []byte(flatOfSize(len(deep), 200))
	if !json.Valid(deep) || !json.Valid(flat) {
		t.Fatal("test bodies are not valid JSON")
	}
	cost := func(body []byte) time.Duration {
		best := time.Duration(math.MaxInt64)
		for range 3 {
			start := time.Now()
			fingerprint(body)
			best = min(best, time.Since(start))
		}
		return best
	}
	flatCost, deepCost := cost(flat), cost(deep)
	if deepCost > 20*flatCost+50*time.Millisecond {
		t.Fatalf("a %d-byte body nested 10000 deep took %v, a flat one %v: not linear", len(deep), deepCost, flatCost)
	}
	// The deep one is still canonical: every level's keys sorted.
	got := canonical(string(deep))
	if !strings.HasPrefix(got, `{"a":{"a":`) || !strings.HasSuffix(got, `"b":"`+strings.Repeat("x", 200)+`"}`) {
		t.Fatalf("deep body canonical form starts %.40s… ends …%.40s", got, got[len(got)-40:])
	}
}

// BenchmarkFingerprintDeeplyNested is an 8 MiB body nested 10000 deep.
func BenchmarkFingerprintDeeplyNested(b *testing.B) {
	body := []byte(deeplyNested(10000, 830, true))
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		fingerprint(body)
	}
}

// BenchmarkFingerprintThousandOperations is the fingerprint's share of a
// 1000-operation batch.
func BenchmarkFingerprintThousandOperations(b *testing.B) {
	body := thousandOperations()
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		fingerprint(body)
	}
}

// Keys that share a prefix and differ inside a character of several bytes
// are ordered by their UTF-16 code units, as encoding them says.
func TestCanonicalKeyOrderIsUTF16OrderAfterSharedPrefixes(t *testing.T) {
	rng := rand.New(rand.NewPCG(8785, 1))
	runes := []rune{'a', 'b', 0x7f, 0x80, 0xe9, 0x7ff, 0x800, 0xd7ff, 0xe000, 0xfb33, 0xffff, 0x10000, 0x1f600, 0x10ffff}
	key := func(prefix string) string {
		b := []rune(prefix)
		for range rng.IntN(3) {
			b = append(b, runes[rng.IntN(len(runes))])
		}
		return string(b)
	}
	for range 20000 {
		prefix := key("")
		x, y := key(prefix), key(prefix)
		c := jcs{out: []byte(x + y)}
		got := c.compareKeys(jcsMember{keyEnd: int32(len(x))}, jcsMember{keyStart: int32(len(x)), keyEnd: int32(len(x) + len(y))})
		want := slices.Compare(utf16.Encode([]rune(x)), utf16.Encode([]rune(y)))
		if (got < 0) != (want < 0) || (got == 0) != (want == 0) {
			t.Fatalf("%q vs %q: got %d, want the sign of %d", x, y, got, want)
		}
	}
}
