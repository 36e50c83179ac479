package console

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.uber.org/zap"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/user"
)

// A use case's refusal reaches the console as its forbidden page, as the
// console's own check answers.
func TestAUseCaseThatRefusesIsTheForbiddenPage(t *testing.T) {
	h, err := New(nil, zap.NewNop(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	h.fail(w, httptest.NewRequest(http.MethodGet, "/console/webhooks", nil),
		errs.Forbiddenf("forbidden: user %q is a reader, and to manage webhooks needs the admin role", "clerk"))
	if body := w.Body.String(); w.Code != http.StatusForbidden || !strings.Contains(body, `<p class="alert" role="alert">Not allowed: user &#34;clerk&#34; is a reader`) {
		t.Errorf("%d %q", w.Code, body)
	}
}

// The pages offer forms, and the webhooks, as the permission table has it.
func TestThePagesOfferWhatTheTableAllows(t *testing.T) {
	for role, want := range map[user.Role][2]bool{
		user.Reader: {false, false}, user.Operator: {true, false}, user.Admin: {true, true},
	} {
		v := view{User: &application.ConsoleUser{Name: "u", Role: role}}
		if got := [2]bool{v.CanAct(), v.IsAdmin()}; got != want {
			t.Errorf("%s: forms %v, webhooks %v; want %v", role, got[0], got[1], want)
		}
	}
	if (view{}).CanAct() || (view{}).IsAdmin() {
		t.Error("nobody signed in is offered something")
	}
}
