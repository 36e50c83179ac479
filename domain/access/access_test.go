package access

import (
	"testing"

	"github.com/shopstock/inventory/domain/user"
)

// Readers read, operators write, admins also manage users and webhooks: a
// reader may every read but users and webhooks; an operator everything but
// users and webhooks; an admin everything.
func TestReadersReadOperatorsWriteAdminsManageUsersAndWebhooks(t *testing.T) {
	may := map[user.Role][]Action{
		user.Reader: {ReadStock, ReadOrders, ReadEvents, ReadPurchaseOrders, ReadTransfers},
		user.Operator: {ReadStock, ReadOrders, ReadEvents, ReadPurchaseOrders,
			ManageWarehouses, ManageArticles, WriteStock, ManageOrders, ShipOrders, ManagePurchaseOrders, ReceiveGoods,
			ReadTransfers, ManageTransfers},
		user.Admin: {ReadStock, ReadOrders, ReadEvents, ReadPurchaseOrders,
			ManageWarehouses, ManageArticles, WriteStock, ManageOrders, ShipOrders, ManagePurchaseOrders, ReceiveGoods,
			ReadTransfers, ManageTransfers, ManageWebhooks, ManageUsers, Maintain},
	}
	for _, role := range []user.Role{user.Reader, user.Operator, user.Admin} {
		allowed := map[Action]bool{}
		for _, a := range may[role] {
			allowed[a] = true
		}
		for _, a := range Actions() {
			if got := Allows(role, a); got != allowed[a] {
				t.Errorf("a %s may %s: %v, want %v", role, a, got, allowed[a])
			}
		}
	}
}

func TestUsersAndWebhooksAreForAdminsEvenToRead(t *testing.T) {
	for _, a := range []Action{ManageUsers, ManageWebhooks} {
		if Allows(user.Operator, a) || Allows(user.Reader, a) {
			t.Errorf("%s is for admins only", a)
		}
	}
}

func TestEveryActionHasALeastRole(t *testing.T) {
	for _, a := range Actions() {
		if _, ok := LeastRole(a); !ok {
			t.Errorf("%s has no least role", a)
		}
	}
	if len(Actions()) != len(leastRole) {
		t.Errorf("Actions lists %d actions, the table has %d", len(Actions()), len(leastRole))
	}
}

func TestNobodyMayDoWhatTheTableDoesNotKnow(t *testing.T) {
	if Allows(user.Admin, Action("format the disk")) {
		t.Error("an unknown action is allowed")
	}
	if Allows(user.Role("root"), ReadStock) || Allows(user.Role(""), ReadStock) {
		t.Error("a role that does not exist may read")
	}
}
