package redistest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A Cluster is a Redis Cluster of the test's own: masters only, the hash
// slots split evenly between them.
type Cluster struct {
	Masters []*Server
}

// StartCluster starts n masters (n ≥ 3, Redis Cluster's least) with
// cluster-enabled yes, joins them with redis-cli --cluster create, and
// waits until every node reports cluster_state:ok.
func StartCluster(t testing.TB, n int) *Cluster {
	t.Helper()
	if n < 3 {
		t.Fatalf("redistest: a cluster of %d masters; Redis Cluster needs 3", n)
	}
	c := &Cluster{Masters: make([]*Server, n)}
	for i := range n {
		c.Masters[i] = Start(t, Options{Cluster: true})
	}
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		cli = filepath.Join(filepath.Dir(c.Masters[0].bin), "redis-cli")
	}
	args := append([]string{"--cluster", "create"}, c.Addrs()...)
	args = append(args, "--cluster-replicas", "0", "--cluster-yes")
	cmd := exec.Command(cli, args...)
	cmd.Env = append(os.Environ(), "REDISCLI_HISTFILE=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("redis-cli --cluster create: %v\n%s", err, out)
	}
	for deadline := time.Now().Add(30 * time.Second); !c.ok(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			info, _ := c.Masters[0].Do("CLUSTER", "INFO")
			t.Fatalf("the cluster is not ok within 30s:\n%s", info)
		}
	}
	return c
}

// ok reports whether every node says cluster_state:ok and knows all n
// masters.
func (c *Cluster) ok() bool {
	for _, m := range c.Masters {
		info, err := m.Do("CLUSTER", "INFO")
		if err != nil || !strings.Contains(info, "cluster_state:ok") ||
			!strings.Contains(info, "cluster_known_nodes:"+strconv.Itoa(len(c.Masters))) {
			return false
		}
	}
	return true
}

// Addrs are the masters' host:port addresses.
func (c *Cluster) Addrs() []string {
	out := make([]string, len(c.Masters))
	for i, m := range c.Masters {
		out[i] = m.Addr()
	}
	return out
}

// URL names every master, as SIGNALS_REDIS_URL takes a cluster's seed
// nodes: redis:// URLs separated by commas.
func (c *Cluster) URL() string {
	urls := make([]string, len(c.Masters))
	for i, m := range c.Masters {
		urls[i] = m.URL()
	}
	return strings.Join(urls, ",")
}

// MasterOf returns the master serving key's hash slot (CLUSTER KEYSLOT),
// by the slot ranges each master gives itself in CLUSTER NODES.
func (c *Cluster) MasterOf(t testing.TB, key string) *Server {
	t.Helper()
	reply, err := c.Masters[0].Do("CLUSTER", "KEYSLOT", key)
	if err != nil {
		t.Fatal(err)
	}
	slot, _ := strconv.Atoi(reply)
	for _, m := range c.Masters {
		nodes, err := m.Do("CLUSTER", "NODES")
		if err != nil {
			t.Fatal(err)
		}
		for line := range strings.SplitSeq(nodes, "\n") {
			f := strings.Fields(line)
			if len(f) < 8 || !strings.Contains(f[2], "myself") {
				continue
			}
			// id addr flags master ping pong epoch state slot…
			for _, r := range f[8:] {
				lo, hi, _ := strings.Cut(r, "-")
				a, errA := strconv.Atoi(lo)
				b, errB := strconv.Atoi(hi)
				if hi == "" {
					b, errB = a, errA
				}
				if errA == nil && errB == nil && a <= slot && slot <= b {
					return m
				}
			}
		}
	}
	t.Fatalf("no master serves slot %d of %q", slot, key)
	return nil
}
