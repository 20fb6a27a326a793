package browser

import (
	"context"
	"html"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"signals/internal/model"
)

// TestHTMLIsValid runs the Nu HTML checker (the npm package vnu-jar, on
// Java) over one page of each kind, the account area included, and fails
// on any error it reports.
func TestHTMLIsValid(t *testing.T) {
	jar := filepath.Join("node_modules", "vnu-jar", "build", "dist", "vnu.jar")
	_, err := os.Stat(jar)
	need(t, "vnu-jar (run npm ci in test/browser)", err)
	java, err := exec.LookPath("java")
	need(t, "java (apt-get install default-jre-headless)", err)

	s := startSite(t)
	cookies, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Jar: cookies}
	dir := t.TempDir()
	var files []string
	pages := map[string]string{} // name -> body
	save := func(name string, resp *http.Response) {
		t.Helper()
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		pages[name] = string(body)
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Fatalf("%s: %s is not HTML:\n%s", name, resp.Header.Get("Content-Type"), body)
		}
		file := filepath.Join(dir, name+".html")
		if err := os.WriteFile(file, body, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, file)
	}
	get := func(name, path string) {
		t.Helper()
		resp, err := client.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		save(name, resp)
	}
	for name, path := range map[string]string{
		"feed": "/", "feed-filtered": "/?tags=funding&country=france", "feed-bad-filter": "/?page_size=99",
		"feed-bad-values": "/?country=atlantis&tags=nope,funding&observed_after=yesterday&utm_source=newsletter", "hub-bad-page": "/hubs/funding?page=0",
		"feed-past-the-end": "/?page=999", "hubs": "/hubs", "hub": "/hubs/funding", "articles": "/articles",
		"article": "/articles/welcome", "about": "/about", "contact": "/contact", "developers": "/developers",
		"developers-api": "/developers/api", "developers-mcp": "/developers/mcp", "developers-errors": "/developers/errors",
		"not-found": "/nothing", "signal": "/signals/" + url.PathEscape("tf-2026-11-0023"), "sign-in": "/sign-in",
		"sign-in-link-gone": "/sign-in/confirm?token=short", "privacy": "/privacy", "feed-empty": "/?tags=funding&q=zzzz+qqqq",
		"search-signed-out": "/search?query=robots+raising+money", "subscribe": "/subscribe?tags=funding&country=france",
		"hub-subscribe": "/hubs/funding/subscribe",
	} {
		get(name, path)
	}

	// Signed in: the account area and its forms' pages.
	const email = "validity@example.com"
	resp, err := client.PostForm(s.url+"/sign-in", url.Values{"email": {email}})
	if err != nil {
		t.Fatal(err)
	}
	save("check-email", resp)
	link := s.signInLink(t, email)
	get("confirm", strings.TrimPrefix(link, s.url))
	token := link[strings.Index(link, "token=")+len("token="):]
	resp, err = client.PostForm(s.url+"/sign-in/confirm", url.Values{"token": {token}})
	if err != nil {
		t.Fatal(err)
	}
	save("account-after-sign-in", resp)
	resp, err = client.PostForm(s.url+"/account/keys", url.Values{"name": {"validity <check>"}})
	if err != nil {
		t.Fatal(err)
	}
	save("account-new-key", resp)
	get("account", "/account")
	get("search", "/search?query="+url.QueryEscape("humanoid robot teleoperation"))
	get("search-invalid", "/search?query=robots&country=atlantis")
	if !strings.Contains(pages["search"], "Relevance") {
		t.Fatalf("the signed-in search shows no match:\n%s", pages["search"])
	}
	if !strings.Contains(pages["account"], "Your account") || !strings.Contains(pages["account-new-key"], "sig_") {
		t.Fatalf("the sign-in did not reach the account area:\n%s", pages["account"])
	}

	// An editor: the desk (its queue, filtered, refused filters, a decision's
	// answer) and its log.
	ctx := context.Background()
	acct, err := s.app.Store().AccountByEmail(ctx, email)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.app.Store().SetRole(ctx, acct.ID, model.RoleEditor); err != nil {
		t.Fatal(err)
	}
	get("desk", "/desk")
	get("desk-public", "/desk?status=public&source=tech_forum&q=inference")
	get("desk-bad-filter", "/desk?status=published")
	ids := regexp.MustCompile(`name="id" value="([^"]+)"`).FindStringSubmatch(pages["desk"])
	if ids == nil {
		t.Fatalf("the desk lists no pending signal:\n%s", pages["desk"])
	}
	resp, err = client.PostForm(s.url+"/desk/decide", url.Values{"id": {html.UnescapeString(ids[1])}, "action": {"save"},
		"tag": {"events"}, "reason": {"a <b>reason</b>"}, "back": {"/desk"}})
	if err != nil {
		t.Fatal(err)
	}
	save("desk-after-decision", resp)
	get("desk-log", "/desk/log")
	if !strings.Contains(pages["desk-log"], "&lt;b&gt;reason&lt;/b&gt;") {
		t.Fatalf("the desk log lacks the decision:\n%s", pages["desk-log"])
	}

	cmd := exec.Command(java, "-jar", jar, "--errors-only", "--format", "gnu")
	cmd.Args = append(cmd.Args, files...)
	out, err := cmd.CombinedOutput()
	if err != nil || len(strings.TrimSpace(string(out))) > 0 {
		t.Errorf("the Nu HTML checker reports errors (%v) in %d pages:\n%s", err, len(files), strings.ReplaceAll(string(out), dir+"/", ""))
	}
	t.Logf("the Nu HTML checker found no error in %d pages", len(files))
}
