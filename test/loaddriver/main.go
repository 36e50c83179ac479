// Command loaddriver puts a running inventory service under batch load: it
// prepares a warehouse with generated bins, products and stock on every bin
// through the API, then sends 1000-operation change batches from several clients and reports
// latency percentiles and throughput. It only talks to the URL it is given.
//
//	go run ./test/loaddriver -url http://127.0.0.1:8080 -user admin -key KEY -clients 4 -batches 50
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"time"
)

type driver struct {
	url, user, key string
	client         *http.Client
}

func (d *driver) call(method, path string, body any) (int, []byte, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return 0, nil, err
	}
	req, err := http.NewRequest(method, d.url+path, bytes.NewReader(raw))
	if err != nil {
		return 0, nil, err
	}
	req.SetBasicAuth(d.user, d.key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := d.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

func main() {
	d := &driver{client: &http.Client{Timeout: time.Minute}}
	flag.StringVar(&d.url, "url", "http://127.0.0.1:8080", "base URL of the service")
	flag.StringVar(&d.user, "user", "admin", "API user")
	flag.StringVar(&d.key, "key", os.Getenv("INVENTORY_API_KEY"), "API key")
	clients := flag.Int("clients", 4, "concurrent clients")
	batches := flag.Int("batches", 25, "batches per client")
	bins := flag.Int("bins", 1000, "bins in the load warehouse")
	articles := flag.Int("articles", 100, "products (each client owns articles/clients of them)")
	flag.Parse()
	if err := run(d, *clients, *batches, *bins, *articles); err != nil {
		fmt.Fprintln(os.Stderr, "loaddriver:", err)
		os.Exit(1)
	}
}

func run(d *driver, clients, batches, bins, articles int) error {
	run := time.Now().UnixNano()
	code := fmt.Sprintf("LOAD%d", run)
	status, body, err := d.call(http.MethodPost, "/api/warehouses", map[string]any{
		"code": code, "name": "load driver",
		"binLocationFormatComponents": []map[string]any{{"type": "text", "value": "B"}, {"type": "number", "from": 1, "to": bins}},
	})
	if err != nil || status != http.StatusCreated {
		return fmt.Errorf("create warehouse: %d %s %v", status, body, err)
	}
	var created struct {
		Data []struct{ ID int64 } `json:"data"`
	}
	if err := json.Unmarshal(body, &created); err != nil || len(created.Data) != 1 {
		return fmt.Errorf("create warehouse: %s", body)
	}
	if status, body, err = d.call(http.MethodPost, fmt.Sprintf("/api/warehouses/%d/binLocations/generate", created.Data[0].ID), map[string]any{}); err != nil || status != http.StatusOK {
		return fmt.Errorf("generate bins: %d %s %v", status, body, err)
	}
	ids := make([]int64, articles)
	for i := range ids {
		status, body, err := d.call(http.MethodPost, "/api/articleDetails", map[string]any{"number": fmt.Sprintf("%s-%d", code, i)})
		var a struct {
			Data struct{ ID int64 } `json:"data"`
		}
		if err != nil || status != http.StatusCreated || json.Unmarshal(body, &a) != nil {
			return fmt.Errorf("create article: %d %s %v", status, body, err)
		}
		ids[i] = a.Data.ID
	}
	// Every mapping the load touches starts with stock, so that the
	// measured batches update existing rows, as a warehouse's do.
	for start := 0; start < articles*bins; start += 1000 {
		ops := make([]map[string]any, 0, 1000)
		for k := start; k < min(start+1000, articles*bins); k++ {
			ops = append(ops, map[string]any{
				"articleDetailId": ids[k/bins], "quantity": 1000,
				"binLocation": map[string]any{"code": fmt.Sprintf("B%d", k%bins+1), "warehouseCode": code},
			})
		}
		status, body, err := d.call(http.MethodPut, fmt.Sprintf("/api/stock/set/%s-seed-%d", code, start), ops)
		if err != nil || status != http.StatusOK || !bytes.Contains(body, []byte(`"success":true`)) {
			return fmt.Errorf("seed stock: %d %.300s %v", status, body, err)
		}
	}
	perClient := articles / clients
	binsPerArticle := (1000 + perClient - 1) / perClient
	batch := func(c, n int, quantity int) []map[string]any {
		ops := make([]map[string]any, 0, 1000)
		for i := 0; len(ops) < 1000; i++ {
			bin := (n*binsPerArticle+i%binsPerArticle)%bins + 1
			ops = append(ops, map[string]any{
				"id": len(ops), "articleDetailId": ids[c*perClient+i/binsPerArticle], "quantity": quantity,
				"binLocation": map[string]any{"code": fmt.Sprintf("B%d", bin), "warehouseCode": code},
			})
		}
		return ops
	}
	// A profiler can start now: what follows is the measured load alone.
	fmt.Fprintf(os.Stderr, "loaddriver: %d products on %d bins ready; sending %d batches from %d clients\n", articles, bins, clients*batches, clients)
	var mu sync.Mutex
	var durations []time.Duration
	var failures int
	var wg sync.WaitGroup
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range batches {
				quantity := 1
				if n%2 == 1 {
					quantity = -1
				}
				t0 := time.Now()
				status, body, err := d.call(http.MethodPut, fmt.Sprintf("/api/stock/change/%s-%d-%d", code, c, n), batch(c, n, quantity))
				mu.Lock()
				if err != nil || status != http.StatusOK || !bytes.Contains(body, []byte(`"success":true`)) {
					failures++
					fmt.Fprintf(os.Stderr, "batch %d/%d: %d %.200s %v\n", c, n, status, body, err)
				} else {
					durations = append(durations, time.Since(t0))
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(durations) == 0 {
		return fmt.Errorf("no batch succeeded")
	}
	slices.Sort(durations)
	pct := func(p int) time.Duration { return durations[min(len(durations)-1, len(durations)*p/100)] }
	fmt.Printf("batches: %d ok, %d failed, %d clients\n", len(durations), failures, clients)
	fmt.Printf("latency: p50 %v  p95 %v  max %v\n", pct(50), pct(95), durations[len(durations)-1])
	fmt.Printf("throughput: %.0f operations/s\n", float64(len(durations)*1000)/elapsed.Seconds())
	if failures > 0 {
		return fmt.Errorf("%d batches failed", failures)
	}
	return nil
}
