package http

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// storedFingerprints are bodies and the fingerprints the idempotency store
// holds for them. A change of the canonical form that alters one of these
// turns the retry of a stored batch into a 409 instead of its replay.
var storedFingerprints = []struct{ body, sum string }{
	{`[{"articleDetailId":1,"quantity":2,"warehouse":{"code":"MAIN"}}]`,
		"aac9b0598742425fb8244ea4165352e906f9f5f98df210d9c3b788e158d0fb42"},
	{`[ { "warehouse" : { "code" : "\u004dAIN" }, "quantity" : 2.0, "articleDetailId" : 1.0 } ]`,
		"aac9b0598742425fb8244ea4165352e906f9f5f98df210d9c3b788e158d0fb42"},
	{"[\n {\n  \"id\": \"op-1\",\n  \"articleDetailId\": 17,\n  \"quantity\": -3,\n  \"binLocation\": {\n   \"code\": \"A-01-02\",\n   \"warehouseId\": 1\n  }\n },\n" +
		" {\n  \"id\": 2,\n  \"articleDetailId\": 18,\n  \"quantity\": 1E2,\n  \"source\": {\"warehouseCode\": \"MAIN\", \"code\": \"B\"},\n  \"destination\": {\"warehouseId\": \"2\", \"code\": \"C\"}\n }\n]",
		"591c7f8c276bf2fb190643248f8be27c08fc8f6502a5447488be70998caef816"},
	{`[{"quantity":0.5,"articleDetailId":123456789012345678,"n":[-0,-0.0,1e-7,1e21,333333333.33333329,5e-324]}]`,
		"ddba42bab0c0d8ca83fd1c8bd578e2441d944e7efee83bec32ffad95fe35c564"},
	// Beyond float64: RFC 8785 has no form for these; they were kept as
	// written, and the operations fail.
	{`[{"articleDetailId":1,"quantity":1e400},{"articleDetailId":-1E+400,"quantity":1}]`,
		"37a7ed87ac3b10982089e40fe0a02e9e682095ec35016722ff3059dec7511e6b"},
	{`[{"z\u00e9":"caf\u00e9 \u2028 \ud83d\ude00","\ufb33":1,"\ud83d\ude00":2,"\u0080":3,"\r":"\u001f\b\/\"\\\t","a":"\u003c&>"}]`,
		"91c1eaea792ef480e2f84af6e2c0c6b0c3e87533dedf911e9cad5bfff604ce61"},
	// Bad UTF-8 and lone surrogates read as U+FFFD; the operations fail.
	{"[{\"bad\":\"\xff\xfe\",\"lone\":\"\\ud800x\",\"low\":\"\\udc00\",\"id\":{\"b\":[true,false,null],\"a\":{}}}]",
		"9504fc251620a48ff8b6c93fedf91e6e75bdb44cd748271466c049970df12621"},
	// A return's body, a receipt's.
	{`{"details":[{"orderDetailId":5,"quantity":1}],"restock":true,"warehouse":{"code":"MAIN"}}`,
		"5c3fb1bf0df0dc171cce2672506cacfdec58362285a3d06b1147ccc041df4d15"},
	{`{"lines":[{"lineId":1,"quantity":3,"binLocation":{"code":"A-1","warehouseId":"2"},"lot":{"number":"L-7","bestBefore":null}}]}`,
		"7d6b93d933fcf3ec8f2acf6e1781965197be1c9af7ce2f6e2298d8492e5ec6fe"},
	// Numbers beyond float64 beside the largest float64 written out, and
	// that number as a string; numbers below the smallest read as 0.
	{`[{"id":"x","articleDetailId":1,"quantity":1e400,"n":[1E400,-1e+400,1.7976931348623157e308,"1.7976931348623157e+308"]}]`,
		"15ade7085e7a537e8ca3693660aaf743206557fe80f1503963239b757cec9a0c"},
	{`[{"n":[1e-400,-1e-400,0.1,100000000000000000000,1e21,123456789012345678901234567890]}]`,
		"a5615fd8f52683eaee47b77969dbbb9ce0a03aa7410366bc91202968dfc4c9ed"},
}

// A thousand operations, compact with sorted keys or indented in the order
// a client's structs have, are one batch.
func TestFingerprintOfAThousandOperations(t *testing.T) {
	const stored = "86ded8c61bc68af3b51d3815a34cc1dfb699ddde7ec8539483260778e0e7182f"
	for _, body := range [][]byte{thousandOperations(), thousandOperationsAsSent()} {
		if got := fingerprint(body); got != stored {
			t.Errorf("fingerprint %s, stored %s", got, stored)
		}
	}
}

func TestFingerprintsOfStoredBatchesStayTheSame(t *testing.T) {
	for _, c := range storedFingerprints {
		if got := fingerprint([]byte(c.body)); got != c.sum {
			t.Errorf("%.60q: fingerprint %s, stored %s", c.body, got, c.sum)
		}
		if !strings.HasPrefix(c.body, "[") {
			continue
		}
		r := httptest.NewRequest(http.MethodPut, "/api/stock/change/k", bytes.NewReader([]byte(c.body)))
		r.Header.Set("Content-Type", "application/json")
		req, err := readBatch(httptest.NewRecorder(), r, "stock/change")
		if err != nil {
			t.Errorf("%.60q: %v", c.body, err)
		} else if req.meta.Fingerprint != c.sum {
			t.Errorf("%.60q: the batch reader's fingerprint %s, stored %s", c.body, req.meta.Fingerprint, c.sum)
		}
	}
}
