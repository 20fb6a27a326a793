// A person's browser, as far as the sign-in and consent pages need one:
// plain HTTP from Node with a cookie jar, redirects followed by hand, forms
// read from the HTML and posted back with the headers a browser sends
// (Origin, Sec-Fetch-Site), and the sign-in link read from the outbox.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// unescapeHTML decodes the character references html/template writes.
export function unescapeHTML(s) {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g, (_, ref) => {
    if (ref[0] === '#') {
      return String.fromCodePoint(ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10));
    }
    return { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }[ref];
  });
}

// attributes parses the attributes of one start tag.
function attributes(tag) {
  const out = {};
  for (const m of tag.matchAll(/([a-zA-Z-]+)(?:="([^"]*)")?/g)) out[m[1].toLowerCase()] = unescapeHTML(m[2] ?? '');
  return out;
}

// forms returns the POST forms of a page: their action and the fields a
// browser would send without typing (hidden inputs and prefilled values),
// and their submit buttons.
export function forms(html) {
  const out = [];
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const form = attributes(m[1]);
    if ((form.method ?? 'get').toLowerCase() !== 'post') continue;
    const fields = {};
    const buttons = [];
    for (const input of m[2].matchAll(/<(input|button)\b([^>]*)>/g)) {
      const a = attributes(input[2]);
      if (!a.name) continue;
      if (input[1] === 'button') buttons.push({ name: a.name, value: a.value ?? '' });
      else if (a.type !== 'submit') fields[a.name] = a.value ?? '';
    }
    out.push({ action: form.action ?? '', fields, buttons });
  }
  return out;
}

// redact hides sign-in tokens and authorization codes in what a failure
// prints.
export function redact(text) {
  return text.replace(/((?:token|code)=|name="token" value=")[A-Za-z0-9_-]+/g, '$1…');
}

export class Browser {
  constructor(origin) {
    this.origin = new URL(origin).origin;
    this.cookies = new Map();
  }

  // request sends one request and keeps the cookies it sets. A navigation
  // typed or opened from elsewhere is Sec-Fetch-Site: none; a form posted
  // from one of the service's pages is same-origin with its Origin.
  async request(url, { method = 'GET', form, site = 'none', origin = this.origin } = {}) {
    const u = new URL(url);
    const headers = {
      accept: 'text/html,application/xhtml+xml',
      'sec-fetch-site': site,
      'sec-fetch-mode': 'navigate',
      'sec-fetch-dest': 'document',
    };
    if (u.origin === this.origin && this.cookies.size > 0) {
      headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    }
    let body;
    if (form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers.origin = origin;
      body = new URLSearchParams(form).toString();
    }
    const res = await fetch(u, { method, headers, body, redirect: 'manual' });
    if (u.origin === this.origin) {
      for (const c of res.headers.getSetCookie()) {
        const [pair, ...attrs] = c.split(';').map((s) => s.trim());
        const eq = pair.indexOf('=');
        const [name, value] = [pair.slice(0, eq), pair.slice(eq + 1)];
        const gone = value === '' || attrs.some((a) => /^max-age=(0|-)/i.test(a));
        if (gone) this.cookies.delete(name);
        else this.cookies.set(name, value);
      }
    }
    const location = res.headers.get('location');
    return { url: u, status: res.status, location: location ? new URL(location, u) : undefined, body: await res.text() };
  }

  // navigate follows redirects within the service's origin and stops at
  // a page or at a redirect that leaves it (to a client's redirect URI).
  async navigate(url, init = {}) {
    let res = await this.request(url, init);
    for (let i = 0; i < 10 && res.status >= 300 && res.status < 400 && res.location?.origin === this.origin; i++) {
      res = await this.request(res.location, { site: init.form ? 'same-origin' : (init.site ?? 'none') });
    }
    return res;
  }

  // submit posts the page's form with action (plus extra fields) as the
  // person pressing its button would.
  async submit(page, action, extra = {}) {
    const form = forms(page.body).find((f) => f.action === action);
    if (!form) throw new Error(`${page.url.pathname}: no form posting to ${action}:\n${redact(page.body.slice(0, 2000))}`);
    return this.navigate(new URL(action, page.url), { method: 'POST', form: { ...form.fields, ...extra }, site: 'same-origin' });
  }
}

// mails lists the messages in the outbox, which the service creates with
// its first message.
function mails(outbox) {
  return existsSync(outbox) ? readdirSync(outbox).filter((n) => n.endsWith('.eml')) : [];
}

// newestMail returns the newest message in the outbox, whose files are
// named <unix-nanoseconds>.eml.
export function newestMail(outbox) {
  const names = mails(outbox);
  names.sort((a, b) => (BigInt(a.slice(0, -4)) < BigInt(b.slice(0, -4)) ? -1 : 1));
  if (names.length === 0) throw new Error(`no message in ${outbox}`);
  return { name: names.at(-1), count: names.length, raw: readFileSync(path.join(outbox, names.at(-1)), 'utf8') };
}

// signInLink finds the sign-in link in a raw message. Each MIME part is
// read as its Content-Transfer-Encoding says: only quoted-printable parts
// are decoded, since "=XX" is also how a plain link's token may begin.
export function signInLink(raw, origin) {
  const plain = raw.split(/\r?\n(?=--)/).map((part) => {
    const [head, ...body] = part.split(/\r?\n\r?\n/);
    const text = body.join('\n\n');
    if (!/^content-transfer-encoding:\s*quoted-printable/im.test(head)) return text;
    return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
  }).join('\n');
  const escaped = origin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const links = [...new Set([...plain.matchAll(new RegExp(`${escaped}/sign-in/confirm\\?token=[A-Za-z0-9_-]+`, 'g'))].map((m) => m[0]))];
  if (links.length !== 1) throw new Error(`the message holds ${links.length} sign-in links:\n${redact(raw)}`);
  return links[0];
}

// signInAndConsent opens an authorization URL in a browser that is not
// signed in: the service sends it to sign in, the link comes by email
// (the outbox), its page's button signs in and leads back to the consent
// page, whose button decision is pressed. It resolves with the redirect
// to the client and the pages seen on the way.
export async function signInAndConsent(browser, authorizationURL, { email, outbox, decision = 'allow' }) {
  const seen = {};
  let page = await browser.navigate(authorizationURL);
  if (page.url.pathname === '/sign-in') {
    seen.signIn = page;
    const before = mails(outbox).length;
    const sent = await browser.submit(page, '/sign-in', { email });
    if (sent.status !== 200) throw new Error(`POST /sign-in: ${sent.status}\n${sent.body.slice(0, 1000)}`);
    const mail = newestMail(outbox);
    if (mail.count !== before + 1) throw new Error(`${mail.count - before} new messages in the outbox, want 1`);
    seen.mail = mail;
    const confirm = await browser.navigate(signInLink(mail.raw, browser.origin));
    if (confirm.status !== 200) throw new Error(`sign-in link: ${confirm.status}\n${redact(confirm.body.slice(0, 1000))}`);
    page = await browser.submit(confirm, '/sign-in/confirm');
  }
  if (page.status !== 200 || page.url.pathname !== '/oauth/authorize') {
    throw new Error(`expected the consent page, got ${page.status} ${redact(page.url.href)}\n${redact(page.body.slice(0, 2000))}`);
  }
  seen.consent = page;
  const form = forms(page.body).find((f) => f.buttons.some((b) => b.name === 'decision' && b.value === decision));
  if (!form) throw new Error(`the consent page has no ${decision} button:\n${page.body}`);
  const answer = await browser.submit(page, form.action, { decision });
  if (answer.status < 300 || answer.status >= 400 || !answer.location) {
    throw new Error(`consent answer ${answer.status}\n${answer.body.slice(0, 2000)}`);
  }
  return { redirect: answer.location, seen };
}
