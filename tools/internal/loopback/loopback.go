// Package loopback keeps the load tools on servers of this machine: each
// refuses a base URL whose host is not a loopback address.
package loopback

import (
	"net"
	"net/url"
)

// URL reports whether raw is a URL whose host is localhost or a loopback
// address.
func URL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
