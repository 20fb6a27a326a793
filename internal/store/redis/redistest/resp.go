package redistest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// Command sends one command to the Redis server at addr (host:port) on a
// connection of its own and returns the reply as text: a status, a number
// or a string as such, nil as "", and an array's elements one a line. A
// Redis error is returned as an error. It lets the tests look into a
// server without depending on the client under test.
func Command(addr string, args ...string) (string, error) {
	return commands(addr, args)
}

// commands sends several commands on one connection, in turn, and returns
// the last one's reply, or the first error.
func commands(addr string, cmds ...[]string) (string, error) {
	conn, err := net.DialTimeout("tcp", addr, 2*time.Second)
	if err != nil {
		return "", err
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(conn)
	var lines []string
	for _, args := range cmds {
		var b strings.Builder
		fmt.Fprintf(&b, "*%d\r\n", len(args))
		for _, a := range args {
			fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
		}
		if _, err := conn.Write([]byte(b.String())); err != nil {
			return "", err
		}
		if lines, err = readReply(r); err != nil {
			return "", err
		}
	}
	return strings.Join(lines, "\n"), nil
}

// readReply reads one RESP2 reply, an array flattened into its elements.
func readReply(r *bufio.Reader) ([]string, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	line = strings.TrimSuffix(line, "\r\n")
	if line == "" {
		return nil, errors.New("redistest: empty reply")
	}
	switch body := line[1:]; line[0] {
	case '+', ':':
		return []string{body}, nil
	case '-':
		return nil, errors.New(body)
	case '$':
		n, err := strconv.Atoi(body)
		if err != nil || n < 0 {
			return []string{""}, err
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, err
		}
		return []string{string(buf[:n])}, nil
	case '*':
		n, err := strconv.Atoi(body)
		if err != nil {
			return nil, err
		}
		var out []string
		for range n {
			elem, err := readReply(r)
			if err != nil {
				return nil, err
			}
			out = append(out, elem...)
		}
		return out, nil
	}
	return nil, fmt.Errorf("redistest: unknown reply %q", line)
}
