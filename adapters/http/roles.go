package http

import "github.com/shopstock/inventory/domain/user"

// routeRoles is the one place that decides who may call what: the least
// role each authenticated route needs. Section U of extensions.md: /api/users
// and /api/webhooks are for admins in every method; beyond them a reader may
// every GET and an operator everything. NewHandler refuses to start with a
// route that has no entry, and TestRouteRolesFollowSectionU checks every
// entry against that rule, so a new route is one line here.
var routeRoles = map[string]user.Role{
	"GET /api/warehouses":                                         user.Reader,
	"POST /api/warehouses":                                        user.Operator,
	"GET /api/warehouses/{id}":                                    user.Reader,
	"PUT /api/warehouses/{id}":                                    user.Operator,
	"DELETE /api/warehouses/{id}":                                 user.Operator,
	"PUT /api/warehouses/{id}/default":                            user.Operator,
	"PUT /api/warehouses/{id}/defaultReturnShipment":              user.Operator,
	"POST /api/warehouses/{id}/binLocations/generate":             user.Operator,
	"GET /api/binLocations":                                       user.Reader,
	"POST /api/binLocations":                                      user.Operator,
	"GET /api/binLocations/{id}":                                  user.Reader,
	"PUT /api/binLocations/{id}":                                  user.Operator,
	"DELETE /api/binLocations/{id}":                               user.Operator,
	"PUT /api/binLocations/{id}/articleDetails/{articleDetailId}": user.Operator,
	"PUT /api/stock/set/{idempotencyKey}":                         user.Operator,
	"PUT /api/stock/change/{idempotencyKey}":                      user.Operator,
	"PUT /api/stock/relocate/{idempotencyKey}":                    user.Operator,
	"PUT /api/orderDetails/ship/{idempotencyKey}":                 user.Operator,
	"GET /api/stockLedgerEntries":                                 user.Reader,
	"GET /api/articleDetails":                                     user.Reader,
	"POST /api/articleDetails":                                    user.Operator,
	"GET /api/articleDetails/{id}":                                user.Reader,
	"PUT /api/articleDetails/{id}":                                user.Operator,
	"DELETE /api/articleDetails/{id}":                             user.Operator,
	"GET /api/orders":                                             user.Reader,
	"POST /api/orders":                                            user.Operator,
	"GET /api/orders/{id}":                                        user.Reader,
	"PUT /api/orders/{id}/ship":                                   user.Operator,
	"GET /api/stock.csv":                                          user.Reader,
	"PUT /api/stock/import/{mode}/{idempotencyKey}":               user.Operator,
	"GET /api/events":                                             user.Reader,
	"GET /api/webhooks":                                           user.Admin,
	"POST /api/webhooks":                                          user.Admin,
	"GET /api/webhooks/{id}":                                      user.Admin,
	"PUT /api/webhooks/{id}":                                      user.Admin,
	"DELETE /api/webhooks/{id}":                                   user.Admin,
	"POST /api/webhooks/{id}/rotateSecret":                        user.Admin,
	"GET /api/webhooks/{id}/deliveries":                           user.Admin,
	"PUT /api/orders/{id}":                                        user.Operator,
	"GET /api/orders/{id}/pickingList":                            user.Reader,
	"POST /api/orders/{id}/pickingList":                           user.Operator,
	"DELETE /api/orders/{id}/pickingList":                         user.Operator,
	"POST /api/orders/{id}/returns":                               user.Operator,
	"GET /api/returns":                                            user.Reader,
	"GET /api/returns/{id}":                                       user.Reader,
	"GET /api/users":                                              user.Admin,
	"POST /api/users":                                             user.Admin,
	"GET /api/users/{id}":                                         user.Admin,
	"PUT /api/users/{id}":                                         user.Admin,
	"DELETE /api/users/{id}":                                      user.Admin,
	"POST /api/users/{id}/rotateKey":                              user.Admin,
}
