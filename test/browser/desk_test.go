package browser

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"signals/internal/auth"
	"signals/internal/model"
	"signals/internal/store/storetest"
)

// deskSignals are the pending signals the desk test decides on, oldest
// first, published in the last hours so that a published one heads the
// feed.
func deskSignals(now time.Time) []model.Signal {
	var out []model.Signal
	for i, id := range []string{"desk-old", "desk-mid", "desk-new", "desk-last"} {
		out = append(out, storetest.Sig(id, 0, func(s *model.Signal) {
			s.Status = model.StatusPending
			s.PublishedAt = model.TimeOf(now.Add(time.Duration(i-5)*time.Hour), 0)
			s.ObservedAt = nil
			s.Text = fmt.Sprintf("Signal %s: a robotics startup raised a seed round to build warehouse robots.", id)
		}))
	}
	return out
}

// TestDeskInChromium takes an editor's decisions on the desk, with
// JavaScript (by key presses: p publishes, h hides, j and k move, t finds
// the kind, d opens the takedown) and without it (through the forms), each
// at 1280 and at 360 px: publish the oldest pending signal, hide the next,
// change a third's kind, mark two market-only at once, and take a public
// signal down with a reason. Afterwards each change shows on the feed, in
// the API and in the desk log. It keeps screenshots of the queue and the
// log at both widths (desk-queue-WIDTH.jpg, desk-log-WIDTH.jpg).
func TestDeskInChromium(t *testing.T) {
	eachWay(t, func(t *testing.T, javascript bool) {
		for _, sc := range []screen{desktop, phone} {
			t.Run(sc.String(), func(t *testing.T) { deskDecisions(t, javascript, sc) })
		}
	})
}

// deskDecisions takes the desk test's decisions on a new site, with or
// without JavaScript, on screen sc; the screenshots are those of
// JavaScript at 1280 px and of plain forms at 360 px.
func deskDecisions(t *testing.T, javascript bool, sc screen) {
	name := wayName(javascript)
	axe := axeScript(t)
	s := startSite(t)
	ctx := context.Background()
	st := s.app.Store()
	storetest.Put(t, st, deskSignals(time.Now())...)
	b := newBrowser(t, javascript)
	email := "editor-" + name + "-" + fmt.Sprint(sc.width) + "@example.com"
	b.signIn(s, email)
	acct, err := st.AccountByEmail(ctx, email)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.SetRole(ctx, acct.ID, model.RoleEditor); err != nil {
		t.Fatal(err)
	}
	width := fmt.Sprint(sc.width)
	shoot := javascript == (sc == desktop)
	b.use(sc)
	b.open(s.url + "/desk?q=warehouse+robots") // these signals alone, oldest first
	b.noOverflow(sc, "the desk")
	if shoot {
		screenshot(t, b, "desk-queue-"+width)
	}
	if javascript { // axe-core runs as a page script
		b.audit(axe, "/desk")
	}
	item := func(id string) string { return "#s-" + id }

	if javascript {
		b.waitFor("the keys shown, the first signal current", `!document.querySelector('.desk-keys').hidden && document.activeElement.id === 's-desk-old'`)
		b.run("press p", chromedp.KeyEvent("p"))
		b.waitFor("the next signal after publishing", `location.hash === '#s-desk-mid' && document.activeElement.id === 's-desk-mid' && document.querySelector('.notice').textContent === 'Published: 1 signal.'`)
		b.run("press h", chromedp.KeyEvent("h"))
		b.waitFor("the next signal after hiding", `location.hash === '#s-desk-new' && document.activeElement.id === 's-desk-new' && !document.querySelector('#s-desk-mid')`)
		b.run("press j, then k", chromedp.KeyEvent("j"))
		b.waitFor("j moves on", `document.activeElement.id === 's-desk-last'`)
		b.run("press k", chromedp.KeyEvent("k"))
		b.waitFor("k moves back", `document.activeElement.id === 's-desk-new'`)
		b.run("press t", chromedp.KeyEvent("t"))
		b.waitFor("t focuses the kind", `document.activeElement.id === 's-desk-new-tag'`)
		b.run("choose Events and save", chromedp.SetValue(item("desk-new")+"-tag", "events", chromedp.ByQuery),
			chromedp.Click(item("desk-new")+` button[value="save"]`, chromedp.ByQuery))
	} else {
		b.run("publish", chromedp.Click(item("desk-old")+` button[value="publish"]`, chromedp.ByQuery, chromedp.NodeVisible))
		b.waitFor("published", `location.hash === '#s-desk-mid' && document.querySelector('.notice').textContent === 'Published: 1 signal.'`)
		b.run("hide", chromedp.Click(item("desk-mid")+` button[value="hide"]`, chromedp.ByQuery, chromedp.NodeVisible))
		b.waitFor("hidden", `location.hash === '#s-desk-new' && !document.querySelector('#s-desk-mid')`)
		b.run("choose Events and save", chromedp.SetValue(item("desk-new")+"-tag", "events", chromedp.ByQuery),
			chromedp.Click(item("desk-new")+` button[value="save"]`, chromedp.ByQuery, chromedp.NodeVisible))
	}
	b.waitFor("corrected", `document.querySelector('.notice').textContent === 'Corrected: 1 signal.' && document.querySelector('#s-desk-new .desk-meta').textContent.includes('Events')`)

	// Two at once: tick them, then decide for the ticked signals (folded
	// behind its summary on a phone).
	b.run("tick two", chromedp.Click(item("desk-new")+"-tick", chromedp.ByQuery, chromedp.NodeVisible),
		chromedp.Click(item("desk-last")+"-tick", chromedp.ByQuery, chromedp.NodeVisible))
	if sc == phone {
		b.run("open the decision on ticked signals", chromedp.Click(`.desk-bulk summary`, chromedp.ByQuery, chromedp.NodeVisible))
	}
	b.run("mark both market-only", chromedp.Click(`.desk-bulk button[value="market-only"]`, chromedp.ByQuery, chromedp.NodeVisible))
	b.waitFor("both market-only", `document.querySelector('.notice').textContent === 'Marked market-only: 2 signals.' && document.querySelectorAll('.desk-item .desk-status + .desk-status').length === 2`)

	// Take down the newest public signal of the tech forums (one of
	// the demo's), found on the desk by its status and source.
	var victim string
	b.open(s.url + "/desk?status=public&source=tech_forum")
	b.eval(`document.querySelector('.desk-item input[name="id"]').value`, &victim)
	if javascript {
		b.waitFor("the first public signal current", `document.activeElement.classList.contains('desk-item')`)
		b.run("press d", chromedp.KeyEvent("d"))
		b.waitFor("the takedown open, its reason focused", `document.activeElement.name === 'reason' && document.activeElement.closest('details').open`)
		b.run("give the reason and send", chromedp.KeyEvent("the author asked"), chromedp.KeyEvent("\r"))
	} else {
		b.run("open the takedown", chromedp.Click(`.desk-queue li:first-child .desk-delete summary`, chromedp.ByQuery, chromedp.NodeVisible))
		b.run("give the reason and send", chromedp.SendKeys(`.desk-queue li:first-child .desk-delete input[name="reason"]`, "the author asked", chromedp.ByQuery),
			chromedp.Click(`.desk-queue li:first-child .desk-delete button`, chromedp.ByQuery, chromedp.NodeVisible))
	}
	b.waitFor("taken down", `document.querySelector('.notice').textContent.startsWith('Taken down from every surface: 1 signal.')`)

	// The feed, the API and the log.
	b.open(s.url + "/")
	var feed string
	b.eval(`document.querySelector('main').innerHTML`, &feed)
	if !strings.Contains(feed, "/signals/desk-old") || strings.Contains(feed, "/signals/desk-mid") ||
		strings.Contains(feed, "/signals/"+victim+`"`) {
		t.Errorf("the feed after the decisions: published %t, hidden absent %t, taken down absent %t",
			strings.Contains(feed, "/signals/desk-old"), !strings.Contains(feed, "/signals/desk-mid"),
			!strings.Contains(feed, "/signals/"+victim+`"`))
	}
	key, _, err := auth.Issue(ctx, st, acct.ID, "check", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for id, want := range map[string]int{"desk-old": 200, "desk-mid": 404, "desk-new": 404, victim: 404} {
		if got := apiStatus(t, s.url+"/api/v1/signals/"+id, key); got != want {
			t.Errorf("API: %s answers %d, want %d", id, got, want)
		}
	}
	b.open(s.url + "/desk/log")
	b.noOverflow(sc, "the desk log")
	var log string
	b.eval(`document.querySelector('main table').innerText`, &log)
	for _, want := range []string{"status pending → public", "status pending → hidden", "kind Funding → Events", "market-only no → yes",
		"taken down", "the author asked", email} {
		if !strings.Contains(log, want) {
			t.Errorf("the desk log lacks %q:\n%s", want, log)
		}
	}
	if shoot {
		screenshot(t, b, "desk-log-"+width)
	}
	if javascript {
		b.audit(axe, "/desk/log")
	}
	b.checkClean()
}
