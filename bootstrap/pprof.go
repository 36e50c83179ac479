package bootstrap

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"go.uber.org/fx"
	"go.uber.org/zap"
)

// checkPprofAddr refuses a profiling address that would share the API's
// port: the profiles reveal the process's internals and must never be
// reachable where the API is. Distinct hosts on one port are fine unless
// either is a wildcard (empty, 0.0.0.0, ::), which covers the other.
func checkPprofAddr(pprofAddr, httpAddr string) error {
	if pprofAddr == "" {
		return nil
	}
	ph, pp, err := net.SplitHostPort(pprofAddr)
	if err != nil {
		return fmt.Errorf("INVENTORY_PPROF_ADDR: want host:port, got %q: %v", pprofAddr, err)
	}
	hh, hp, err := net.SplitHostPort(httpAddr)
	if err != nil {
		return fmt.Errorf("INVENTORY_HTTP_ADDR: want host:port, got %q: %v", httpAddr, err)
	}
	wildcard := func(h string) bool { return h == "" || h == "0.0.0.0" || h == "::" }
	if pp == hp && pp != "0" && (ph == hh || wildcard(ph) || wildcard(hh)) {
		return fmt.Errorf("INVENTORY_PPROF_ADDR (%s) must not be the API's address (INVENTORY_HTTP_ADDR %s): serve profiles on a port of their own", pprofAddr, httpAddr)
	}
	return nil
}

// runProfiler serves net/http/pprof on INVENTORY_PPROF_ADDR, on a mux and a
// server of its own, when the operator asks for it; off by default.
// A configuration built without ConfigFromEnv is checked here too.
func runProfiler(lc fx.Lifecycle, c Config, log *zap.Logger) error {
	if c.PprofAddr == "" {
		return nil
	}
	if err := checkPprofAddr(c.PprofAddr, c.HTTPAddr); err != nil {
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	// No write timeout: a CPU profile or trace streams for ?seconds=N.
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	lc.Append(fx.Hook{
		OnStart: func(context.Context) error {
			ln, err := net.Listen("tcp", c.PprofAddr)
			if err != nil {
				return listenError("INVENTORY_PPROF_ADDR", c.PprofAddr, err)
			}
			log.Info("profiling listener", zap.String("addr", ln.Addr().String()))
			if a, ok := ln.Addr().(*net.TCPAddr); ok && !a.IP.IsLoopback() {
				log.Warn("the profiling listener is reachable beyond loopback and has no auth: "+
					"its profiles reveal the process's internals; bind INVENTORY_PPROF_ADDR to 127.0.0.1 "+
					"or keep the port behind a firewall", zap.String("addr", ln.Addr().String()))
			}
			go func() {
				if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
					log.Error("profiling listener stopped", zap.Error(err))
				}
			}()
			return nil
		},
		// A running profile must not hold the service's stop up.
		OnStop: func(context.Context) error { return srv.Close() },
	})
	return nil
}
