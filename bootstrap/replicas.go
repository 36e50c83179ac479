package bootstrap

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/shopstock/inventory/adapters/bunstore"
)

// readReplicaConfig reads INVENTORY_DATABASE_REPLICA_URL, the hot standbys
// that take the reads deciding no write, and INVENTORY_REPLICA_MAX_LAG, how
// far one may be behind and still be used.
func readReplicaConfig(c *Config) error {
	raw := strings.TrimSpace(os.Getenv("INVENTORY_DATABASE_REPLICA_URL"))
	lag := os.Getenv("INVENTORY_REPLICA_MAX_LAG")
	if lag == "" {
		lag = "5s"
	}
	maxLag, err := time.ParseDuration(lag)
	if err != nil || maxLag <= 0 {
		return fmt.Errorf("INVENTORY_REPLICA_MAX_LAG: want a positive Go duration such as 5s, got %q", lag)
	}
	c.ReplicaMaxLag = maxLag
	if raw == "" {
		return nil
	}
	if _, _, isSQLite := sqlitePath(c.DatabaseURL); isSQLite {
		return errors.New("INVENTORY_DATABASE_REPLICA_URL: replicas are PostgreSQL hot standbys, and INVENTORY_DATABASE_URL is SQLite; unset it or use PostgreSQL")
	}
	for _, u := range strings.Split(raw, ",") {
		u = strings.TrimSpace(u)
		if !strings.HasPrefix(u, "postgres://") && !strings.HasPrefix(u, "postgresql://") {
			scheme, _, _ := strings.Cut(u, ":")
			return fmt.Errorf("INVENTORY_DATABASE_REPLICA_URL: want PostgreSQL URLs separated by commas (postgres://user:password@replica:5432/database), not %q", scheme)
		}
		c.ReplicaURLs = append(c.ReplicaURLs, u)
	}
	return nil
}

// replicaCollector tells the reads served per target (the primary, each
// replica) and each replica's lag and whether it is used.
type replicaCollector struct {
	db                 *bunstore.DB
	reads, lag, usable *prometheus.Desc
}

// registerReplicaMetrics adds the reads per target, and with replicas their
// lag and state.
func registerReplicaMetrics(reg *prometheus.Registry, db *bunstore.DB) error {
	return reg.Register(&replicaCollector{db: db,
		reads: prometheus.NewDesc("inventory_database_reads_total",
			"Reads (one per use case) served by the primary (target primary, also every read a replica failed) or by a replica (its host:port/database).", []string{"target"}, nil),
		lag: prometheus.NewDesc("inventory_database_replica_lag_seconds",
			"How far the replica's replay was behind the primary at its last check (missing while it cannot be checked).", []string{"replica"}, nil),
		usable: prometheus.NewDesc("inventory_database_replica_usable",
			"1 while reads go to the replica, 0 while it is unreachable, no standby, or more than INVENTORY_REPLICA_MAX_LAG behind.", []string{"replica"}, nil),
	})
}

func (c *replicaCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.reads
	ch <- c.lag
	ch <- c.usable
}

func (c *replicaCollector) Collect(ch chan<- prometheus.Metric) {
	primary, replicas := c.db.ReadStats()
	ch <- prometheus.MustNewConstMetric(c.reads, prometheus.CounterValue, float64(primary), "primary")
	for _, r := range replicas {
		ch <- prometheus.MustNewConstMetric(c.reads, prometheus.CounterValue, float64(r.Reads), r.Name)
		usable := 0.0
		if r.Usable {
			usable = 1
		}
		ch <- prometheus.MustNewConstMetric(c.usable, prometheus.GaugeValue, usable, r.Name)
		if r.Lag >= 0 {
			ch <- prometheus.MustNewConstMetric(c.lag, prometheus.GaugeValue, r.Lag.Seconds(), r.Name)
		}
	}
}
