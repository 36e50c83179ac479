package http

import (
	_ "embed"
	"net/http"
)

// OpenAPIDocument describes the whole interface; the HTTP tests validate
// every response against it.
//
//go:embed openapi.json
var OpenAPIDocument []byte

func serveOpenAPI(w http.ResponseWriter, _ *http.Request) {
	writeRaw(w, http.StatusOK, OpenAPIDocument)
}
