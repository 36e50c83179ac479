package test

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"testing"

	"github.com/shopstock/inventory/application"
	"github.com/shopstock/inventory/domain/errs"
	"github.com/shopstock/inventory/domain/order"
	"github.com/shopstock/inventory/domain/purchase"
	"github.com/shopstock/inventory/domain/stock"
	"github.com/shopstock/inventory/domain/transfer"
	"github.com/shopstock/inventory/domain/user"
	"github.com/shopstock/inventory/domain/warehouse"
	"github.com/shopstock/inventory/domain/wave"
	"github.com/shopstock/inventory/ports"
	"github.com/shopstock/inventory/test/apitest"
	"github.com/shopstock/inventory/test/testdb"
)

// routeUseCase drives the use case that a route's handler runs, with
// arguments that name nothing that exists or break a rule, so that a call
// that is allowed changes nothing the other calls see. n makes keys unique.
type routeUseCase func(ctx context.Context, app *application.App, n int) error

var (
	noID       = int64(999999)
	noOrder    = application.OrderRef{ID: noID}
	renderNone = func(application.BatchResult) ([]byte, error) { return []byte("{}"), nil }
	someList   = ports.ListQuery{Limit: 1}
)

func batchMeta(endpoint string, n int) application.BatchMeta {
	return application.BatchMeta{Key: fmt.Sprintf("roles-%d", n), Endpoint: endpoint, Fingerprint: "f", User: "roles"}
}

// useCaseOfRoute has, for each route of the API, the use case its handler
// runs.
var useCaseOfRoute = map[string]routeUseCase{
	"GET /api/warehouses": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Warehouses(ctx, someList)
		return err
	},
	"POST /api/warehouses": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.CreateWarehouse(ctx, warehouse.Details{})
		return err
	},
	"GET /api/warehouses/{id}": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Warehouse(ctx, noID)
		return err
	},
	"PUT /api/warehouses/{id}": func(ctx context.Context, app *application.App, _ int) error {
		return app.UpdateWarehouse(ctx, noID, warehouse.Patch{})
	},
	"DELETE /api/warehouses/{id}": func(ctx context.Context, app *application.App, _ int) error {
		return app.DeleteWarehouse(ctx, noID)
	},
	"PUT /api/warehouses/{id}/default": func(ctx context.Context, app *application.App, _ int) error {
		return app.MakeDefaultWarehouse(ctx, noID)
	},
	"PUT /api/warehouses/{id}/defaultReturnShipment": func(ctx context.Context, app *application.App, _ int) error {
		return app.MakeDefaultReturnWarehouse(ctx, noID)
	},
	"POST /api/warehouses/{id}/binLocations/generate": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.GenerateBinLocations(ctx, noID)
		return err
	},
	"GET /api/binLocations": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.BinLocations(ctx, someList)
		return err
	},
	"POST /api/binLocations": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.CreateBinLocation(ctx, noID, "X")
		return err
	},
	"GET /api/binLocations/{id}": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.BinLocation(ctx, noID)
		return err
	},
	"PUT /api/binLocations/{id}": func(ctx context.Context, app *application.App, _ int) error {
		return app.UpdateBinLocation(ctx, noID, nil, nil)
	},
	"DELETE /api/binLocations/{id}": func(ctx context.Context, app *application.App, _ int) error {
		return app.DeleteBinLocation(ctx, noID)
	},
	"PUT /api/binLocations/{id}/articleDetails/{articleDetailId}": func(ctx context.Context, app *application.App, _ int) error {
		return app.SetDefaultBinLocation(ctx, noID, noID, true)
	},
	"PUT /api/stock/set/{idempotencyKey}": func(ctx context.Context, app *application.App, n int) error {
		_, err := app.StockBatch(ctx, batchMeta("stock/set", n), nil, renderNone)
		return err
	},
	"PUT /api/stock/change/{idempotencyKey}": func(ctx context.Context, app *application.App, n int) error {
		_, err := app.StockBatch(ctx, batchMeta("stock/change", n), nil, renderNone)
		return err
	},
	"PUT /api/stock/relocate/{idempotencyKey}": func(ctx context.Context, app *application.App, n int) error {
		_, err := app.StockBatch(ctx, batchMeta("stock/relocate", n), nil, renderNone)
		return err
	},
	"PUT /api/orderDetails/ship/{idempotencyKey}": func(ctx context.Context, app *application.App, n int) error {
		_, err := app.ShipOrderDetails(ctx, batchMeta("orderDetails/ship", n), nil, renderNone)
		return err
	},
	"GET /api/stockLedgerEntries": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.StockLedgerEntries(ctx, someList)
		return err
	},
	"GET /api/articleDetails": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.ArticleDetails(ctx, someList)
		return err
	},
	"POST /api/articleDetails": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.CreateArticleDetail(ctx, 0, "", "", 0)
		return err
	},
	"GET /api/articleDetails/{id}": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.ArticleDetail(ctx, noID)
		return err
	},
	"PUT /api/articleDetails/{id}": func(ctx context.Context, app *application.App, _ int) error {
		return app.UpdateArticleDetail(ctx, noID, nil, nil, nil)
	},
	"DELETE /api/articleDetails/{id}": func(ctx context.Context, app *application.App, _ int) error {
		return app.DeleteArticleDetail(ctx, noID)
	},
	"GET /api/orders": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Orders(ctx, someList)
		return err
	},
	"POST /api/orders": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.CreateOrder(ctx, order.NewOrder{})
		return err
	},
	"GET /api/orders/{id}": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Order(ctx, noOrder)
		return err
	},
	"PUT /api/orders/{id}": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.ChangeOrder(ctx, noOrder, order.Changes{}, "roles")
		return err
	},
	"PUT /api/orders/{id}/ship": func(ctx context.Context, app *application.App, _ int) error {
		return app.ShipOrder(ctx, noOrder, nil, true, "roles")
	},
	"GET /api/orders/{id}/pickingList": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.PickingListOf(ctx, noOrder)
		return err
	},
	"POST /api/orders/{id}/pickingList": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.ReservePickingList(ctx, noOrder, nil)
		return err
	},
	"DELETE /api/orders/{id}/pickingList": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.ReleasePickingList(ctx, noOrder)
		return err
	},
	"POST /api/orders/{id}/returns": func(ctx context.Context, app *application.App, n int) error {
		_, err := app.ReturnOrder(ctx, batchMeta("orders/returns", n), noOrder, application.ReturnRequest{},
			func(int64) ([]byte, error) { return []byte("{}"), nil })
		return err
	},
	"GET /api/returns": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Returns(ctx, someList)
		return err
	},
	"GET /api/returns/{id}": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Return(ctx, noID)
		return err
	},
	"GET /api/lots": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Lots(ctx, someList)
		return err
	},
	"GET /api/lots/{id}": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Lot(ctx, noID)
		return err
	},
	"GET /api/purchaseOrders": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.PurchaseOrders(ctx, someList)
		return err
	},
	"POST /api/purchaseOrders": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.CreatePurchaseOrder(ctx, application.PurchaseOrderRequest{Warehouse: stock.WarehouseSpec{ID: noID}})
		return err
	},
	"GET /api/purchaseOrders/{id}": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.PurchaseOrder(ctx, noID)
		return err
	},
	"PUT /api/purchaseOrders/{id}": func(ctx context.Context, app *application.App, _ int) error {
		return app.ChangePurchaseOrder(ctx, noID, purchase.Change{})
	},
	"DELETE /api/purchaseOrders/{id}": func(ctx context.Context, app *application.App, _ int) error {
		return app.DeletePurchaseOrder(ctx, noID)
	},
	"POST /api/purchaseOrders/{id}/receipts": func(ctx context.Context, app *application.App, n int) error {
		_, err := app.ReceivePurchaseOrder(ctx, batchMeta("purchaseOrders/receipts", n), noID, nil,
			func(int64) ([]byte, error) { return []byte("{}"), nil })
		return err
	},
	"GET /api/purchaseOrders/{id}/receipts": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.PurchaseReceipts(ctx, noID, someList)
		return err
	},
	"GET /api/purchaseOrders/{id}/receipts/{receiptId}": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.PurchaseReceipt(ctx, noID, noID)
		return err
	},
	"GET /api/transfers": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Transfers(ctx, someList)
		return err
	},
	"POST /api/transfers": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.CreateTransfer(ctx, application.TransferRequest{Source: stock.WarehouseSpec{ID: noID}, Destination: stock.WarehouseSpec{ID: noID}})
		return err
	},
	"GET /api/transfers/{id}": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Transfer(ctx, noID)
		return err
	},
	"PUT /api/transfers/{id}": func(ctx context.Context, app *application.App, _ int) error {
		return app.ChangeTransfer(ctx, noID, transfer.Change{})
	},
	"POST /api/transfers/{id}/shipments": func(ctx context.Context, app *application.App, n int) error {
		_, err := app.ShipTransfer(ctx, batchMeta("transfers/shipments", n), noID, nil,
			func(int64) ([]byte, error) { return []byte("{}"), nil })
		return err
	},
	"GET /api/transfers/{id}/shipments/{shipmentId}": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.TransferMovement(ctx, ports.TransferShipment, noID, noID)
		return err
	},
	"POST /api/transfers/{id}/receipts": func(ctx context.Context, app *application.App, n int) error {
		_, err := app.ReceiveTransfer(ctx, batchMeta("transfers/receipts", n), noID, nil,
			func(int64) ([]byte, error) { return []byte("{}"), nil })
		return err
	},
	"GET /api/transfers/{id}/receipts/{receiptId}": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.TransferMovement(ctx, ports.TransferReceipt, noID, noID)
		return err
	},
	"GET /api/stock.csv": func(ctx context.Context, app *application.App, _ int) error {
		return app.ExportStock(ctx, "", func(ports.StockExportRow) error { return nil })
	},
	"PUT /api/stock/import/{mode}/{idempotencyKey}": func(ctx context.Context, app *application.App, n int) error {
		_, err := app.ImportStock(ctx, batchMeta("stock/import/set", n), application.ImportSet,
			[]application.ImportLine{{Line: 2, WarehouseCode: "NONE", ArticleDetailNumber: "NONE"}},
			func(application.ImportResult) ([]byte, error) { return []byte("{}"), nil })
		return err
	},
	"GET /api/events": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.ReadEvents(ctx, 0, 1, nil)
		return err
	},
	"GET /api/webhooks": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Webhooks(ctx, someList)
		return err
	},
	"POST /api/webhooks": func(ctx context.Context, app *application.App, _ int) error {
		_, _, err := app.CreateWebhook(ctx, application.WebhookInput{})
		return err
	},
	"GET /api/webhooks/{id}": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Webhook(ctx, noID)
		return err
	},
	"PUT /api/webhooks/{id}": func(ctx context.Context, app *application.App, _ int) error {
		return app.UpdateWebhook(ctx, noID, application.WebhookInput{})
	},
	"DELETE /api/webhooks/{id}": func(ctx context.Context, app *application.App, _ int) error {
		return app.DeleteWebhook(ctx, noID)
	},
	"POST /api/webhooks/{id}/rotateSecret": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.RotateWebhookSecret(ctx, noID)
		return err
	},
	"GET /api/webhooks/{id}/deliveries": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.WebhookDeliveries(ctx, noID, someList)
		return err
	},
	"GET /api/users": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Users(ctx, someList)
		return err
	},
	"POST /api/users": func(ctx context.Context, app *application.App, _ int) error {
		_, _, err := app.CreateUser(ctx, "", "", false)
		return err
	},
	"GET /api/users/{id}": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.User(ctx, noID)
		return err
	},
	"PUT /api/users/{id}": func(ctx context.Context, app *application.App, _ int) error {
		return app.UpdateUser(ctx, noID, nil, nil)
	},
	"DELETE /api/users/{id}": func(ctx context.Context, app *application.App, _ int) error {
		return app.DeleteUser(ctx, noID)
	},
	"POST /api/users/{id}/rotateKey": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.RotateUserKey(ctx, noID)
		return err
	},
	"GET /api/counts": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Counts(ctx, someList)
		return err
	},
	"POST /api/counts": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.CreateCount(ctx, application.CountRequest{})
		return err
	},
	"GET /api/counts/{id}": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Count(ctx, noID)
		return err
	},
	"PUT /api/counts/{id}": func(ctx context.Context, app *application.App, _ int) error {
		return app.CancelCount(ctx, noID)
	},
	"PUT /api/counts/{id}/bins/{binLocationId}": func(ctx context.Context, app *application.App, _ int) error {
		return app.CountBin(ctx, noID, noID, nil)
	},
	"POST /api/counts/{id}/apply": func(ctx context.Context, app *application.App, n int) error {
		_, err := app.ApplyCount(ctx, batchMeta("counts/apply", n), noID, func(application.CountApplied) ([]byte, error) { return []byte("{}"), nil })
		return err
	},
	"POST /api/pickingWaves": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.CreateWave(ctx, application.NewWave{OrderIDs: []int64{noID}})
		return err
	},
	"GET /api/pickingWaves": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Waves(ctx, someList)
		return err
	},
	"GET /api/pickingWaves/{id}": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.Wave(ctx, noID)
		return err
	},
	"POST /api/pickingWaves/{id}/tasks/{taskId}/confirm": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.ConfirmWaveTask(ctx, noID, 1, wave.Confirmation{})
		return err
	},
	"POST /api/pickingWaves/{id}/ship": func(ctx context.Context, app *application.App, _ int) error {
		_, err := app.ShipWave(ctx, noID, "roles")
		return err
	},
}

// TestUseCasesRefuseWhereHTTPSays403 drives every route of the OpenAPI
// document over HTTP and its use case directly, as a reader, an operator
// and an admin: the use case refuses (errs.Forbidden) exactly where HTTP
// answers 403 and the role falls short of what the route needs, so that a
// use case driven without the HTTP adapter keeps the roles all the same.
func TestUseCasesRefuseWhereHTTPSays403(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		e := newUsersEnv(t, databaseURL)
		names, keys := e.roleUsers("uc")
		doc := apitest.Spec(t)
		paths := doc.Paths.InMatchingOrder()
		sort.Strings(paths)
		walked := map[string]bool{}
		n := 0
		for _, path := range paths {
			if !strings.HasPrefix(path, "/api/") || path == "/api/openapi.json" || strings.HasPrefix(path, "/api/docs") {
				continue
			}
			for method := range doc.Paths.Find(path).Operations() {
				pattern := method + " " + path
				useCase, ok := useCaseOfRoute[pattern]
				if !ok {
					t.Errorf("%s has no use case in useCaseOfRoute", pattern)
					continue
				}
				walked[pattern] = true
				for _, role := range []user.Role{user.Reader, user.Operator, user.Admin} {
					n++
					concrete := strings.NewReplacer("{id}", "999999", "{articleDetailId}", "999999", "{mode}", "set",
						"{idempotencyKey}", fmt.Sprintf("roles-http-%d", n)).Replace(path)
					var body any
					if method == http.MethodPost || method == http.MethodPut {
						body = "{}"
					}
					res := usersAs(t, e.Env, names[role], keys[role], method, concrete, body)
					err := useCase(apitest.As(context.Background(), names[role], role), e.App, n)
					// HTTP answers from the same use case where its early check
					// lets the request through, so both are held to the roles' rule.
					refused := !role.Covers(roleNeededFor(method, path))
					httpRefuses := res.Status == http.StatusForbidden
					useCaseRefuses := errs.KindOf(err) == errs.Forbidden
					if httpRefuses != refused || useCaseRefuses != refused {
						t.Errorf("%s as %s: HTTP %s, use case %v; the role falls short: %v", pattern, role, res, err, refused)
					}
					if useCaseRefuses && !strings.HasPrefix(err.Error(), "forbidden: ") {
						t.Errorf("%s as %s: %q does not say forbidden", pattern, role, err)
					}
				}
			}
		}
		for pattern := range useCaseOfRoute {
			if !walked[pattern] {
				t.Errorf("useCaseOfRoute has %s, which the OpenAPI document lacks", pattern)
			}
		}
		if len(walked) < 30 {
			t.Fatalf("only %d routes walked", len(walked))
		}
	})
}

// Use cases that no route runs keep the table too: the console's previews
// and stock lines, the command line's look-up by name, and the service's
// own upkeep, which is the system's.
func TestUseCasesWithoutARouteKeepTheTable(t *testing.T) {
	testdb.Each(t, func(t *testing.T, databaseURL string) {
		env := apitest.New(t, databaseURL)
		app := env.App
		calls := []struct {
			name  string
			least user.Role
			call  func(ctx context.Context) error
		}{
			{"StockLines", user.Reader, func(ctx context.Context) error {
				_, err := app.StockLines(ctx, ports.StockLineFilter{ArticleDetailID: noID})
				return err
			}},
			{"PreviewStockImport", user.Operator, func(ctx context.Context) error {
				_, err := app.PreviewStockImport(ctx, "roles", application.ImportSet, nil)
				return err
			}},
			{"UserByName", user.Admin, func(ctx context.Context) error {
				_, err := app.UserByName(ctx, "nobody")
				return err
			}},
			{"PurgeIdempotencyKeys", user.Admin, func(ctx context.Context) error {
				_, err := app.PurgeIdempotencyKeys(ctx, 1<<62)
				return err
			}},
			{"MailQueueStats", user.Admin, func(ctx context.Context) error {
				_, err := app.MailQueueStats(ctx)
				return err
			}},
			{"LotsNumbered", user.Reader, func(ctx context.Context) error {
				_, err := app.LotsNumbered(ctx, "none")
				return err
			}},
			{"FoldRowCounts", user.Admin, func(ctx context.Context) error {
				return app.FoldRowCounts(ctx)
			}},
			{"ShortPickOrder", user.Operator, func(ctx context.Context) error {
				_, err := app.ShortPickOrder(ctx, application.OrderRef{ID: noID}, application.OrderShort{})
				return err
			}},
			{"ShipmentPreview", user.Reader, func(ctx context.Context) error {
				_, err := app.ShipmentPreview(ctx, application.OrderRef{ID: noID}, nil)
				return err
			}},
		}
		for _, c := range calls {
			if err := c.call(context.Background()); errs.KindOf(err) != errs.Forbidden {
				t.Errorf("%s without a caller: %v, want forbidden", c.name, err)
			}
			if err := c.call(application.WithPrincipal(context.Background(), application.System)); errs.KindOf(err) == errs.Forbidden {
				t.Errorf("%s as the system: %v", c.name, err)
			}
			for _, role := range []user.Role{user.Reader, user.Operator, user.Admin} {
				err := c.call(apitest.As(context.Background(), "u-"+string(role), role))
				if refused := errs.KindOf(err) == errs.Forbidden; refused == role.Covers(c.least) {
					t.Errorf("%s as %s: %v, the %s role is the least it needs", c.name, role, err, c.least)
				}
			}
		}
	})
}
