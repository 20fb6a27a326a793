// Package redistest runs Redis servers of a test's own from the machine's
// redis-server, so that the test can kill, restart and cluster them, and
// hands out a database on the shared server named by SIGNALS_TEST_REDIS for
// tests that only need one. Without redis-server the tests skip, except
// under CI, where they fail: CI must run them.
package redistest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// EnvURL names the variable holding the URL of a Redis server started for
// the whole test run.
const EnvURL = "SIGNALS_TEST_REDIS"

// Options configure a server started by Start.
type Options struct {
	// AppendFsync is the append-only file's fsync policy: "everysec" (the
	// default), "always" or "no".
	AppendFsync string
	// Cluster starts the server with cluster-enabled yes, as one node of a
	// cluster still to be joined (see StartCluster).
	Cluster bool
}

// A Server is a redis-server process of the test's own, with its own folder
// holding its configuration, append-only file and log. It is killed when
// the test ends.
type Server struct {
	t       testing.TB
	bin     string
	dir     string
	port    int
	busPort int // the cluster bus, when Options.Cluster
	opts    Options
	cmd     *exec.Cmd
	exited  chan struct{} // closed when cmd has exited and been reaped
}

// Start starts a server with appendonly yes on a free port of 127.0.0.1 and
// waits until it answers.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.AppendFsync == "" {
		opts.AppendFsync = "everysec"
	}
	s := &Server{t: t, bin: serverBinary(t), dir: t.TempDir(), opts: opts}
	t.Cleanup(s.Kill)
	// Another process may take the free port between its choice and the
	// server's bind: choose again.
	var err error
	for range 5 {
		s.port, s.busPort = freePort(t), 0
		if opts.Cluster {
			s.busPort = freePort(t)
		}
		if err = s.start(); !errors.Is(err, errPortTaken) {
			break
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// serverBinary finds redis-server, or skips the test (fails it under CI).
func serverBinary(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		bin = "/usr/bin/redis-server"
		if _, err := os.Stat(bin); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("no redis-server on this machine, and CI requires the Redis tests")
			}
			t.Skip("no redis-server on this machine (apt-get install redis-server); Redis tests skipped")
		}
	}
	return bin
}

// freePort returns a port of 127.0.0.1 that was free a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

var errPortTaken = errors.New("redistest: port taken")

// config is the server's configuration file.
func (s *Server) config() string {
	lines := []string{
		"bind 127.0.0.1",
		"port " + strconv.Itoa(s.port),
		"dir " + s.dir,
		"logfile " + filepath.Join(s.dir, "redis.log"),
		"daemonize no",
		`save ""`,
		"appendonly yes",
		"appendfsync " + s.opts.AppendFsync,
	}
	if s.opts.Cluster {
		lines = append(lines, "cluster-enabled yes", "cluster-config-file nodes.conf",
			"cluster-node-timeout 5000", "cluster-port "+strconv.Itoa(s.busPort))
	}
	return strings.Join(lines, "\n") + "\n"
}

// start runs the server on its port and waits until it answers PING.
func (s *Server) start() error {
	conf := filepath.Join(s.dir, "redis.conf")
	if err := os.WriteFile(conf, []byte(s.config()), 0o644); err != nil {
		return err
	}
	cmd := exec.Command(s.bin, conf)
	cmd.Dir = s.dir
	// Its own process group: a Ctrl-C of the test run reaches the test,
	// whose clean-up kills the server.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	for deadline := time.Now().Add(20 * time.Second); ; {
		select {
		case <-exited:
			log, _ := os.ReadFile(filepath.Join(s.dir, "redis.log"))
			if strings.Contains(string(log), "Address already in use") {
				return errPortTaken
			}
			return fmt.Errorf("redistest: redis-server exited at start:\n%s", log)
		default:
		}
		if reply, err := s.Do("PING"); err == nil && reply == "PONG" {
			s.cmd, s.exited = cmd, exited
			return nil
		} else if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-exited
			return fmt.Errorf("redistest: redis-server did not answer within 20s: %v %q", err, reply)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)) }

// URL is the server's redis:// URL.
func (s *Server) URL() string { return "redis://" + s.Addr() }

// Dir is the server's folder: its configuration, append-only file and log.
func (s *Server) Dir() string { return s.dir }

// Kill ends the server with SIGKILL, as a crash would: what it had not
// written to its append-only file is lost.
func (s *Server) Kill() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.exited
	s.cmd = nil
}

// Stop shuts the server down with SIGTERM: it writes its append-only file
// and exits.
func (s *Server) Stop() {
	s.t.Helper()
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	<-s.exited
	s.cmd = nil
}

// Restart starts the server again after Kill or Stop, on the same port and
// folder, so that it reloads its append-only file; it waits until the
// server answers.
func (s *Server) Restart() {
	s.t.Helper()
	s.Kill()
	// The port may linger a moment after the kill; another process taking
	// it in between fails the test, as clients must find the server again.
	var err error
	for range 50 {
		if err = s.start(); !errors.Is(err, errPortTaken) {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		s.t.Fatal(err)
	}
}

// Do sends one command and returns its reply (see Command).
func (s *Server) Do(args ...string) (string, error) { return Command(s.Addr(), args...) }
