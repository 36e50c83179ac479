package http

import (
	"github.com/shopstock/inventory/domain/access"
)

// routeActions names the action of the permission table (domain/access)
// that each authenticated route does; the table, not this adapter, decides
// which roles may do it. The route's middleware asks it before the handler
// reads the request, so that a caller who may not do the action costs no
// parsing of a large body; the use case asks it again. NewHandler refuses
// to start with a route that has no entry, and TestRouteActionsFollowTheRoles
// checks the role every entry comes to against the rule of the roles, so a new
// route is one line here.
var routeActions = map[string]access.Action{
	"GET /api/warehouses":                                         access.ReadStock,
	"POST /api/warehouses":                                        access.ManageWarehouses,
	"GET /api/warehouses/{id}":                                    access.ReadStock,
	"PUT /api/warehouses/{id}":                                    access.ManageWarehouses,
	"DELETE /api/warehouses/{id}":                                 access.ManageWarehouses,
	"PUT /api/warehouses/{id}/default":                            access.ManageWarehouses,
	"PUT /api/warehouses/{id}/defaultReturnShipment":              access.ManageWarehouses,
	"POST /api/warehouses/{id}/binLocations/generate":             access.ManageWarehouses,
	"GET /api/binLocations":                                       access.ReadStock,
	"POST /api/binLocations":                                      access.ManageWarehouses,
	"GET /api/binLocations/{id}":                                  access.ReadStock,
	"PUT /api/binLocations/{id}":                                  access.ManageWarehouses,
	"DELETE /api/binLocations/{id}":                               access.ManageWarehouses,
	"PUT /api/binLocations/{id}/articleDetails/{articleDetailId}": access.WriteStock,
	"PUT /api/stock/set/{idempotencyKey}":                         access.WriteStock,
	"PUT /api/stock/change/{idempotencyKey}":                      access.WriteStock,
	"PUT /api/stock/relocate/{idempotencyKey}":                    access.WriteStock,
	"PUT /api/orderDetails/ship/{idempotencyKey}":                 access.ShipOrders,
	"GET /api/stockLedgerEntries":                                 access.ReadStock,
	"GET /api/articleDetails":                                     access.ReadStock,
	"POST /api/articleDetails":                                    access.ManageArticles,
	"GET /api/articleDetails/{id}":                                access.ReadStock,
	"PUT /api/articleDetails/{id}":                                access.ManageArticles,
	"DELETE /api/articleDetails/{id}":                             access.ManageArticles,
	"GET /api/orders":                                             access.ReadOrders,
	"POST /api/orders":                                            access.ManageOrders,
	"GET /api/orders/{id}":                                        access.ReadOrders,
	"PUT /api/orders/{id}/ship":                                   access.ShipOrders,
	"GET /api/stock.csv":                                          access.ReadStock,
	"PUT /api/stock/import/{mode}/{idempotencyKey}":               access.WriteStock,
	"GET /api/events":                                             access.ReadEvents,
	"GET /api/webhooks":                                           access.ManageWebhooks,
	"POST /api/webhooks":                                          access.ManageWebhooks,
	"GET /api/webhooks/{id}":                                      access.ManageWebhooks,
	"PUT /api/webhooks/{id}":                                      access.ManageWebhooks,
	"DELETE /api/webhooks/{id}":                                   access.ManageWebhooks,
	"POST /api/webhooks/{id}/rotateSecret":                        access.ManageWebhooks,
	"GET /api/webhooks/{id}/deliveries":                           access.ManageWebhooks,
	"PUT /api/orders/{id}":                                        access.ManageOrders,
	"GET /api/orders/{id}/pickingList":                            access.ReadOrders,
	"POST /api/orders/{id}/pickingList":                           access.ManageOrders,
	"DELETE /api/orders/{id}/pickingList":                         access.ManageOrders,
	"POST /api/orders/{id}/returns":                               access.ManageOrders,
	"GET /api/returns":                                            access.ReadOrders,
	"GET /api/returns/{id}":                                       access.ReadOrders,
	"GET /api/lots":                                               access.ReadStock,
	"GET /api/lots/{id}":                                          access.ReadStock,
	"GET /api/purchaseOrders":                                     access.ReadPurchaseOrders,
	"POST /api/purchaseOrders":                                    access.ManagePurchaseOrders,
	"GET /api/purchaseOrders/{id}":                                access.ReadPurchaseOrders,
	"PUT /api/purchaseOrders/{id}":                                access.ManagePurchaseOrders,
	"DELETE /api/purchaseOrders/{id}":                             access.ManagePurchaseOrders,
	"POST /api/purchaseOrders/{id}/receipts":                      access.ReceiveGoods,
	"GET /api/purchaseOrders/{id}/receipts":                       access.ReadPurchaseOrders,
	"GET /api/purchaseOrders/{id}/receipts/{receiptId}":           access.ReadPurchaseOrders,
	"GET /api/users":                                              access.ManageUsers,
	"POST /api/users":                                             access.ManageUsers,
	"GET /api/users/{id}":                                         access.ManageUsers,
	"PUT /api/users/{id}":                                         access.ManageUsers,
	"DELETE /api/users/{id}":                                      access.ManageUsers,
	"POST /api/users/{id}/rotateKey":                              access.ManageUsers,
	// Counts correct the books: whoever may change stock may count.
	"GET /api/counts":                                    access.ReadStock,
	"GET /api/counts/{id}":                               access.ReadStock,
	"POST /api/counts":                                   access.WriteStock,
	"PUT /api/counts/{id}":                               access.WriteStock,
	"PUT /api/counts/{id}/bins/{binLocationId}":          access.WriteStock,
	"POST /api/counts/{id}/apply":                        access.WriteStock,
	"POST /api/pickingWaves":                             access.ManageOrders,
	"GET /api/pickingWaves":                              access.ReadOrders,
	"GET /api/pickingWaves/{id}":                         access.ReadOrders,
	"POST /api/pickingWaves/{id}/tasks/{taskId}/confirm": access.ManageOrders,
	"POST /api/pickingWaves/{id}/ship":                   access.ShipOrders,
}
