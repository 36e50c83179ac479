// Package access is the permission table: what a user may do,
// by the least role each action needs. The use cases check it for every
// caller, and the adapters ask it to refuse early and to show only what a
// user may use.
package access

import "github.com/shopstock/inventory/domain/user"

// Action is something a caller asks the service to do, named as coarsely as
// the roles tell actions apart.
type Action string

const (
	// ReadStock is reading warehouses, bin locations, article details, their
	// stock and ledger, and the stock export.
	ReadStock Action = "read stock"
	// ReadOrders is reading orders, their picking lists and returns.
	ReadOrders Action = "read orders"
	// ReadEvents is reading the change feed.
	ReadEvents Action = "read events"
	// ManageWarehouses is creating, changing and deleting warehouses and bin
	// locations, and choosing the default warehouses.
	ManageWarehouses Action = "manage warehouses"
	// ManageArticles is creating, changing and deleting article details.
	ManageArticles Action = "manage article details"
	// WriteStock is setting, changing, moving and importing stock, and
	// choosing a product's default bin locations.
	WriteStock Action = "write stock"
	// ManageOrders is creating and changing orders, reserving and releasing
	// their picking lists, and recording returns.
	ManageOrders Action = "manage orders"
	// ShipOrders is shipping orders and order positions.
	ShipOrders Action = "ship orders"
	// ReadPurchaseOrders is reading purchase orders and their receipts.
	ReadPurchaseOrders Action = "read purchase orders"
	// ManagePurchaseOrders is creating, changing, cancelling and deleting
	// purchase orders.
	ManagePurchaseOrders Action = "manage purchase orders"
	// ReceiveGoods is booking receipts of purchase orders into stock.
	ReceiveGoods Action = "receive goods"
	// ReadTransfers is reading transfers between warehouses.
	ReadTransfers Action = "read transfers"
	// ManageTransfers is creating, shipping, receiving and cancelling
	// transfers between warehouses.
	ManageTransfers Action = "manage transfers"
	// ManageWebhooks is everything about webhooks, reading them included:
	// they name where events go and hold the secrets that sign them.
	ManageWebhooks Action = "manage webhooks"
	// ManageUsers is everything about API users, reading them included.
	ManageUsers Action = "manage users"
	// Maintain is the service's own upkeep, which no request asks for:
	// purging what is past its retention, sending mails and webhook
	// deliveries, counting their queues. Only the service itself does it,
	// as the system, an admin.
	Maintain Action = "maintain the service"
)

// leastRole is the rule of the roles: a reader may read everything but
// users and webhooks, an operator may do everything but manage users and
// webhooks, and those are for admins.
var leastRole = map[Action]user.Role{
	ReadStock:            user.Reader,
	ReadOrders:           user.Reader,
	ReadEvents:           user.Reader,
	ManageWarehouses:     user.Operator,
	ManageArticles:       user.Operator,
	WriteStock:           user.Operator,
	ManageOrders:         user.Operator,
	ShipOrders:           user.Operator,
	ReadPurchaseOrders:   user.Reader,
	ManagePurchaseOrders: user.Operator,
	ReceiveGoods:         user.Operator,
	ReadTransfers:        user.Reader,
	ManageTransfers:      user.Operator,
	ManageWebhooks:       user.Admin,
	ManageUsers:          user.Admin,
	Maintain:             user.Admin,
}

// Actions lists every action of the table.
func Actions() []Action {
	return []Action{ReadStock, ReadOrders, ReadEvents, ManageWarehouses, ManageArticles,
		WriteStock, ManageOrders, ShipOrders, ReadPurchaseOrders, ManagePurchaseOrders, ReceiveGoods,
		ReadTransfers, ManageTransfers, ManageWebhooks, ManageUsers, Maintain}
}

// LeastRole is the least role that may do a, and whether a is an action of
// the table.
func LeastRole(a Action) (user.Role, bool) {
	r, ok := leastRole[a]
	return r, ok
}

// Allows tells whether a user in role r may do a. An action the table does
// not know is allowed to nobody.
func Allows(r user.Role, a Action) bool {
	need, ok := leastRole[a]
	return ok && r.Covers(need)
}
