package email

import "testing"

func TestAnAddressMustBeBare(t *testing.T) {
	if got, err := Parse(" jane@example.com "); err != nil || got != "jane@example.com" {
		t.Fatalf("got %q, %v", got, err)
	}
	for _, bad := range []string{"", "jane", "Jane <jane@example.com>", "jane@", "a@b@c"} {
		if _, err := Parse(bad); err == nil || err.Error() != "must be an email address" {
			t.Errorf("%q: got %v", bad, err)
		}
	}
}
