package http

// privateAnswers are the routes whose answers show a key or a secret
// (shown once, never to be kept) or personal data: a customer's e-mail
// address, a warehouse's contact person, e-mail, phone and address, the
// API users. Every answer of these routes, error or not, says
// Cache-Control: no-store, so that no cache on the way and no browser keeps
// a copy. NewHandler refuses an entry that names no registered route, so
// that a renamed route cannot silently lose it.
var privateAnswers = map[string]bool{
	"POST /api/users":                      true,
	"GET /api/users":                       true,
	"GET /api/users/{id}":                  true,
	"PUT /api/users/{id}":                  true,
	"POST /api/users/{id}/rotateKey":       true,
	"POST /api/webhooks":                   true,
	"POST /api/webhooks/{id}/rotateSecret": true,
	"GET /api/orders":                      true,
	"GET /api/orders/{id}":                 true,
	"GET /api/warehouses":                  true,
	"GET /api/warehouses/{id}":             true,
}
