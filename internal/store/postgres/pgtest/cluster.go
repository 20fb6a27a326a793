package pgtest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// A Cluster is a PostgreSQL server of the test's own, run from the
// machine's PostgreSQL programs in a temporary folder, so that the test can
// crash it: SIGKILL to the server and every process it started, as a power
// cut or an out-of-memory kill would, then start it again to recover.
type Cluster struct {
	t      testing.TB
	bin    string              // folder of initdb and postgres
	dir    string              // the data folder and the socket
	port   int                 // on 127.0.0.1
	as     *syscall.Credential // the postgres user's, when the test runs as root
	server *exec.Cmd
}

// NewCluster makes and starts a cluster, stopped and removed when the test
// ends. Without PostgreSQL's programs the test skips, or fails under CI.
func NewCluster(t testing.TB) *Cluster {
	t.Helper()
	bins, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if path, err := exec.LookPath("initdb"); err == nil {
		bins = append(bins, path)
	}
	if len(bins) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatal("no initdb on this machine, and CI requires the database crash tests")
		}
		t.Skip("no initdb on this machine; database crash tests skipped")
	}
	slices.Sort(bins) // the newest version last
	c := &Cluster{t: t, bin: filepath.Dir(bins[len(bins)-1])}
	dir, err := os.MkdirTemp("", "signals-pg-")
	if err != nil {
		t.Fatal(err)
	}
	c.dir = dir
	t.Cleanup(func() {
		c.Crash()
		os.RemoveAll(dir)
	})
	if os.Geteuid() == 0 {
		// PostgreSQL refuses to run as root.
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Fatalf("running as root, and no postgres user to run PostgreSQL as: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
		c.as = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	if out, err := c.command("initdb", "-D", c.data(), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync").CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c.port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	c.Start()
	return c
}

func (c *Cluster) data() string { return filepath.Join(c.dir, "data") }

func (c *Cluster) command(name string, args ...string) *exec.Cmd {
	// The server is this process's own child, so that its exit is reaped
	// here and its lock file names no process once it is killed.
	cmd := exec.Command(filepath.Join(c.bin, name), args...)
	cmd.Dir = c.dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Credential: c.as}
	return cmd
}

// URL is the connection string of the cluster's postgres database.
func (c *Cluster) URL() string {
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", c.port)
}

// Start starts the server, recovering from a crash if there was one, and
// waits until it takes connections.
func (c *Cluster) Start() {
	c.t.Helper()
	c.server = c.command("postgres", "-D", c.data(), "-p", strconv.Itoa(c.port), "-k", c.dir,
		"-c", "listen_addresses=127.0.0.1", "-c", "max_connections=50")
	log, err := os.OpenFile(filepath.Join(c.dir, "log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		c.t.Fatal(err)
	}
	defer log.Close()
	c.server.Stdout, c.server.Stderr = log, log
	if err := c.server.Start(); err != nil {
		c.t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		conn, err := pgx.Connect(ctx, c.URL())
		cancel()
		if err == nil {
			conn.Close(context.Background())
			return
		}
		if time.Now().After(deadline) {
			out, _ := os.ReadFile(filepath.Join(c.dir, "log"))
			c.t.Fatalf("the test's PostgreSQL did not start within 30s: %v\n%s", err, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop shuts the server down as an operator does (a fast shutdown: open
// sessions end, new ones are refused) and waits until it has.
func (c *Cluster) Stop() {
	c.t.Helper()
	if c.server == nil || c.server.Process == nil {
		return
	}
	c.server.Process.Signal(syscall.SIGINT)
	c.server.Wait()
	c.server = nil
}

// Crash kills the server and every process of it at once, with no chance
// to write anything more: each is stopped (SIGSTOP) first, then killed.
func (c *Cluster) Crash() {
	if c.server == nil || c.server.Process == nil {
		return
	}
	// The postmaster first, so that it forks no process after its
	// children are listed.
	postmaster := c.server.Process.Pid
	syscall.Kill(postmaster, syscall.SIGSTOP)
	pids := append([]int{postmaster}, children(postmaster)...)
	for _, pid := range pids[1:] {
		syscall.Kill(pid, syscall.SIGSTOP)
	}
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGKILL)
	}
	c.server.Wait()
	c.server = nil
	// A killed process holds the shared memory until it is gone, and a
	// server started before would refuse the data folder.
	for deadline := time.Now().Add(30 * time.Second); slices.ContainsFunc(pids, alive); {
		if time.Now().After(deadline) {
			c.t.Fatalf("the test's PostgreSQL processes outlived SIGKILL by 30s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// alive reports whether process pid exists and has not exited (a zombie
// has released its memory).
func alive(pid int) bool {
	stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(stat), ')')
	f := strings.Fields(string(stat[i+1:]))
	return i > 0 && len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// children returns the processes whose parent is pid, from /proc.
func children(pid int) []int {
	entries, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …; comm may hold spaces, so read after ")".
		i := strings.LastIndexByte(string(stat), ')')
		if f := strings.Fields(string(stat[i+1:])); i > 0 && len(f) > 1 && f[1] == strconv.Itoa(pid) {
			out = append(out, child)
		}
	}
	return out
}
