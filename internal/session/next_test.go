package session

import "testing"

func TestLocalPath(t *testing.T) {
	for _, tt := range []struct{ name, next, want string }{
		{"empty", "", ""},
		{"account", "/account", "/account"},
		{"with query", "/oauth/authorize?client_id=c&state=s%20t", "/oauth/authorize?client_id=c&state=s%20t"},
		{"fragment dropped", "/account#keys", "/account"},
		{"scheme-relative", "//evil.example/account", ""},
		{"absolute", "https://evil.example/account", ""},
		{"javascript", "javascript:alert(1)", ""},
		{"relative", "account", ""},
		{"backslash", "/\\evil.example", ""},
		{"backslashes", "\\\\evil.example", ""},
		{"tab before slashes", "/\t/evil.example", ""},
		{"newline", "/account\r\nSet-Cookie: x=y", ""},
		{"escaped slashes stay a path", "/%2F%2Fevil.example", "/%2F%2Fevil.example"},
		{"userinfo-like", "/@evil.example", "/@evil.example"},
		{"too long", "/" + string(make([]byte, 3000)), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := LocalPath(tt.next); got != tt.want {
				t.Errorf("LocalPath(%q) = %q, want %q", tt.next, got, tt.want)
			}
		})
	}
}

func TestTokens(t *testing.T) {
	a, ha := NewToken()
	b, hb := NewToken()
	if a == b || string(ha) == string(hb) {
		t.Fatal("two tokens are equal")
	}
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{a, true},
		{a[:len(a)-1], false},
		{a + "A", false},
		{a[:len(a)-1] + "+", false},
		{"", false},
	} {
		if got := WellFormed(tt.s); got != tt.want {
			t.Errorf("WellFormed(%q) = %v", tt.s, got)
		}
	}
}
