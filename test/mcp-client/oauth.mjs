// Connects the official TypeScript SDK's OAuth client to a real
// `signals serve --demo` process, with no API key:
//
//   node oauth.mjs path/to/signals
//
// The SDK's StreamableHTTPClientTransport, given an OAuthClientProvider,
// meets the 401 of /mcp and runs the SDK's auth(): protected resource and
// authorization server metadata discovery, dynamic client registration,
// PKCE, and the authorization URL handed to the provider. A headless
// browser (browser.mjs) opens that URL: it signs in with the link the
// service writes to its outbox and presses Allow on the consent page; the
// code from the redirect goes to finishAuth(). Then the client lists the
// tools and calls each one with the token, refreshes through auth() and
// through the transport's own answer to a refused token, and finally the
// token is revoked (RFC 7009) and the next call is refused with 401.
//
// Prints "N passed, N failed" and exits non-zero on any failure.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { auth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { Browser, signInAndConsent } from './browser.mjs';
import { checker, freePort, startService } from './service.mjs';

const binary = process.argv[2];
if (!binary) {
  console.error('usage: node oauth.mjs path/to/signals');
  process.exit(2);
}

const counts = checker();
const { check } = counts;

// MemoryProvider is an OAuthClientProvider that keeps everything in
// memory, as one desktop client session would, and records what the SDK
// asked of it.
class MemoryProvider {
  constructor(redirectURL) {
    this.redirect = redirectURL;
    this.client = undefined;
    this.saved = undefined;
    this.verifier = undefined;
    this.discovery = undefined;
    this.lastState = undefined;
    this.authorizationURLs = [];
    this.tokenSaves = 0;
    this.invalidated = [];
  }
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata() {
    return {
      client_name: 'Signals CI <TypeScript SDK>',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    this.lastState = randomBytes(16).toString('base64url');
    return this.lastState;
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info) {
    this.client = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens) {
    this.saved = tokens;
    this.tokenSaves++;
  }
  redirectToAuthorization(url) {
    this.authorizationURLs.push(url);
  }
  saveCodeVerifier(v) {
    this.verifier = v;
  }
  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
  saveDiscoveryState(state) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
  invalidateCredentials(scope) {
    this.invalidated.push(scope);
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    if (scope === 'all' || scope === 'discovery') this.discovery = undefined;
  }
}

// recordingFetch is fetch that logs "METHOD path status" of every request
// the SDK sends.
function recordingFetch(log) {
  return async (input, init) => {
    const res = await fetch(input, init);
    const url = new URL(input instanceof Request ? input.url : String(input));
    log.push(`${init?.method ?? (input instanceof Request ? input.method : 'GET')} ${url.pathname} ${res.status}`);
    return res;
  };
}

// postForm posts a form to the service as a client would, no cookies.
async function postForm(url, form) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text };
}

// answer describes a token endpoint answer without the tokens it may
// carry, which stay out of the logs.
function answer(res) {
  return `${res.status} ${res.json?.error ?? ''} ${res.json?.error_description ?? ''}${res.json?.access_token ? ' (tokens issued)' : ''}`;
}

// withoutCode is a redirect URL with its code hidden, for the logs.
function withoutCode(url) {
  const u = new URL(url);
  if (u.searchParams.has('code')) u.searchParams.set('code', '…');
  return u.href;
}

// mcpStatus sends one tools/list to /mcp with a bearer token outside the
// SDK, to see the service's own answer.
async function mcpStatus(base, token) {
  const res = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  await res.text();
  return { status: res.status, challenge: res.headers.get('www-authenticate') ?? '' };
}

async function connect(mcpURL, provider, log) {
  const client = new Client({ name: 'signals-ci-oauth', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(mcpURL, { authProvider: provider, fetch: recordingFetch(log) });
  await client.connect(transport);
  return { client, transport };
}

async function flow(base, outbox) {
  const mcpURL = new URL(`${base}/mcp`);
  const redirectURL = `http://127.0.0.1:${await freePort()}/callback`;
  const provider = new MemoryProvider(redirectURL);
  const log = [];

  // 1. No token: the transport meets the 401 and the SDK's auth() runs
  //    discovery, registration and PKCE, then hands over the URL.
  let first;
  try {
    await connect(mcpURL, provider, log);
    first = 'connected without a token';
  } catch (err) {
    first = err;
  }
  check('connect without a token: UnauthorizedError after auth() asked for a redirect',
    first instanceof UnauthorizedError && provider.authorizationURLs.length === 1, String(first));
  const wanted = [
    'POST /mcp 401',
    'GET /.well-known/oauth-protected-resource/mcp 200',
    'GET /.well-known/oauth-authorization-server 200',
    'POST /oauth/register 201',
  ];
  check('discovery: 401, RFC 9728 then RFC 8414 metadata, then RFC 7591 registration, in order',
    JSON.stringify(log.filter((l) => wanted.includes(l))) === JSON.stringify(wanted), log.join(', '));
  const d = provider.discovery;
  check('discovery: the resource is /mcp and the authorization server is the service',
    d?.resourceMetadata?.resource === `${base}/mcp` && new URL(d?.authorizationServerUrl ?? 'x:').origin === base &&
    d?.authorizationServerMetadata?.issuer === base &&
    d?.authorizationServerMetadata?.client_id_metadata_document_supported === false,
    JSON.stringify(d));
  check('registration: a public client id, no secret',
    typeof provider.client?.client_id === 'string' && provider.client.client_id !== '' && !provider.client.client_secret &&
    provider.client.token_endpoint_auth_method === 'none',
    JSON.stringify(provider.client));
  const authURL = provider.authorizationURLs[0];
  if (!authURL) return;
  const q = authURL.searchParams;
  check('authorization URL: code, S256 challenge, state, resource /mcp, both scopes',
    authURL.href.startsWith(`${base}/oauth/authorize?`) && q.get('response_type') === 'code' &&
    q.get('client_id') === provider.client.client_id && q.get('redirect_uri') === redirectURL &&
    q.get('code_challenge_method') === 'S256' && /^[A-Za-z0-9_-]{43}$/.test(q.get('code_challenge') ?? '') &&
    q.get('state') === provider.lastState && q.get('resource') === `${base}/mcp` &&
    q.get('scope') === 'signals:read signals:search',
    authURL.href);

  // 2. The person: sign in through the emailed link, then Allow.
  const browser = new Browser(base);
  const { redirect, seen } = await signInAndConsent(browser, authURL, { email: 'oauth-ci@example.com', outbox });
  check('browser: sent to sign in first, then back to the consent page', seen.signIn !== undefined && seen.mail !== undefined);
  check('consent page: names the client (escaped), the redirect host and both scopes',
    seen.consent.body.includes('Signals CI &lt;TypeScript SDK&gt;') && !seen.consent.body.includes('<TypeScript SDK>') &&
    seen.consent.body.includes(new URL(redirectURL).host) &&
    seen.consent.body.includes('signals:read') && seen.consent.body.includes('signals:search'));
  check('consent: redirect to the registered URI with code, state and iss',
    redirect.href.startsWith(`${redirectURL}?`) && redirect.searchParams.get('code') &&
    redirect.searchParams.get('state') === provider.lastState && redirect.searchParams.get('iss') === base,
    withoutCode(redirect));
  const code = redirect.searchParams.get('code');

  // 3. finishAuth exchanges the code with the PKCE verifier.
  const finisher = new StreamableHTTPClientTransport(mcpURL, { authProvider: provider, fetch: recordingFetch(log) });
  await finisher.finishAuth(code);
  const t1 = provider.saved;
  check('finishAuth: a bearer access token for an hour, a refresh token and both scopes',
    typeof t1?.access_token === 'string' && /^bearer$/i.test(t1.token_type) && t1.expires_in === 3600 &&
    typeof t1.refresh_token === 'string' && t1.scope === 'signals:read signals:search',
    JSON.stringify({ ...t1, access_token: t1?.access_token && '…', refresh_token: t1?.refresh_token && '…' }));
  const reuse = await postForm(`${base}/oauth/token`, {
    grant_type: 'authorization_code', code, code_verifier: provider.verifier, redirect_uri: redirectURL,
    client_id: provider.client.client_id, resource: `${base}/mcp`,
  });
  check('the code works once: a second exchange is invalid_grant', reuse.status === 400 && reuse.json?.error === 'invalid_grant',
    answer(reuse));
  // The reused code revoked what it issued, as RFC 6749 §4.1.2 asks; sign
  // in again is not needed, the session stays: consent once more.
  check('a reused code revokes its tokens', (await mcpStatus(base, t1.access_token)).status === 401);
  provider.saved = undefined;
  const again = await auth(provider, { serverUrl: mcpURL, fetchFn: recordingFetch(log) });
  check('auth() without tokens asks for a redirect again', again === 'REDIRECT' && provider.authorizationURLs.length === 2);
  // A consent posted from another site is refused: the browser's headers
  // reach the service, and Allow cannot be pressed from elsewhere.
  const forged = await browser.request(provider.authorizationURLs[1], {
    method: 'POST', form: Object.fromEntries([...provider.authorizationURLs[1].searchParams, ['decision', 'allow']]),
    site: 'cross-site', origin: 'https://elsewhere.example',
  });
  check('a consent posted from another site is refused with 403', forged.status === 403 && !forged.location,
    `${forged.status} ${forged.location}`);
  const second = await signInAndConsent(browser, provider.authorizationURLs[1], { email: 'oauth-ci@example.com', outbox });
  check('the signed-in browser goes straight to the consent page', second.seen.signIn === undefined);
  const done = await auth(provider, { serverUrl: mcpURL, authorizationCode: second.redirect.searchParams.get('code'), fetchFn: recordingFetch(log) });
  check('auth() with the code: AUTHORIZED', done === 'AUTHORIZED' && typeof provider.saved?.access_token === 'string');

  // 4. Tool calls with the token.
  const { client } = await connect(mcpURL, provider, log);
  const { tools } = await client.listTools();
  check('tools/list: three tools', tools.length === 3, tools.map((t) => t.name).join(', '));
  const list = await client.callTool({ name: 'list_signals', arguments: { page_size: 2 } });
  check('list_signals: a page of 2', !list.isError && list.structuredContent?.signals?.length === 2,
    JSON.stringify(list.structuredContent)?.slice(0, 300));
  const id = list.structuredContent?.signals?.[0]?.id;
  const one = await client.callTool({ name: 'get_signal', arguments: { id } });
  check('get_signal: the signal', !one.isError && one.structuredContent?.id === id);
  const found = await client.callTool({ name: 'search_signals', arguments: { query: 'funding round for an AI startup', limit: 3 } });
  check('search_signals: matches', !found.isError && Array.isArray(found.structuredContent?.matches),
    JSON.stringify(found.structuredContent)?.slice(0, 300));

  // 5. Refresh through auth(): stored tokens with a refresh token are
  //    rotated.
  const t2 = provider.saved;
  const refreshed = await auth(provider, { serverUrl: mcpURL, fetchFn: recordingFetch(log) });
  const t3 = provider.saved;
  check('auth() with a refresh token: AUTHORIZED with new access and refresh tokens',
    refreshed === 'AUTHORIZED' && t3.access_token !== t2.access_token && t3.refresh_token !== t2.refresh_token &&
    t3.scope === 'signals:read signals:search');
  const afterRefresh = await client.callTool({ name: 'list_signals', arguments: { page_size: 1 } });
  check('the refreshed access token works', !afterRefresh.isError);

  // 6. A token the service no longer accepts (as an expired one): the
  //    transport sees the 401, refreshes through auth() and retries.
  provider.saved = { ...t3, access_token: `expired-${randomBytes(24).toString('base64url')}` };
  const mark = log.length;
  const retried = await client.callTool({ name: 'get_signal', arguments: { id } });
  const t4 = provider.saved;
  check('refused access token: the transport refreshed and the call succeeded',
    !retried.isError && retried.structuredContent?.id === id && t4.refresh_token !== t3.refresh_token &&
    JSON.stringify(log.slice(mark).filter((l) => /^POST \/(mcp|oauth\/token) /.test(l))) ===
      JSON.stringify(['POST /mcp 401', 'POST /oauth/token 200', 'POST /mcp 200']),
    log.slice(mark).join(', '));

  // 7. Revocation ends the grant: the access token is refused with 401,
  //    the refresh token too, and the SDK client falls back to asking for
  //    authorization again.
  const revoked = await postForm(`${base}/oauth/revoke`, { token: t4.access_token, token_type_hint: 'access_token', client_id: provider.client.client_id });
  check('POST /oauth/revoke: 200', revoked.status === 200, answer(revoked));
  const after = await mcpStatus(base, t4.access_token);
  check('after revocation: /mcp answers 401 with a Bearer challenge naming the metadata',
    after.status === 401 && /^Bearer /.test(after.challenge) &&
    after.challenge.includes(`resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`), JSON.stringify(after));
  const refresh = await postForm(`${base}/oauth/token`, { grant_type: 'refresh_token', refresh_token: t4.refresh_token, client_id: provider.client.client_id });
  check('after revocation: the refresh token is invalid_grant', refresh.status === 400 && refresh.json?.error === 'invalid_grant',
    answer(refresh));
  const mark2 = log.length;
  let failed;
  try {
    await client.callTool({ name: 'list_signals', arguments: {} });
  } catch (err) {
    failed = err;
  }
  check('after revocation: the SDK call fails with 401 and asks for authorization again',
    failed instanceof UnauthorizedError && log.slice(mark2).includes('POST /mcp 401') &&
    provider.invalidated.includes('tokens') && provider.authorizationURLs.length === 3,
    `${failed}; ${log.slice(mark2).join(', ')}; invalidated ${provider.invalidated}`);
  await client.close();

  // 8. Scopes: a client that asked for signals:read alone may list but not
  //    search; the 403 names the scopes it needs, and authorizing again
  //    with them (the SDK's refresh keeps the granted scope) lets it search.
  const narrow = new MemoryProvider(redirectURL);
  const asked = await auth(narrow, { serverUrl: mcpURL, scope: 'signals:read', fetchFn: recordingFetch(log) });
  check('auth() with scope signals:read: a new registration and a redirect',
    asked === 'REDIRECT' && narrow.client?.client_id !== provider.client?.client_id &&
    narrow.authorizationURLs[0]?.searchParams.get('scope') === 'signals:read');
  const readOnly = await signInAndConsent(browser, narrow.authorizationURLs[0], { email: 'oauth-ci@example.com', outbox });
  check('consent page of a read-only client: no search permission',
    readOnly.seen.consent.body.includes('signals:read') && !readOnly.seen.consent.body.includes('signals:search'));
  await auth(narrow, { serverUrl: mcpURL, authorizationCode: readOnly.redirect.searchParams.get('code'), fetchFn: recordingFetch(log) });
  check('read-only token: scope signals:read', narrow.saved?.scope === 'signals:read', narrow.saved?.scope);
  const small = await connect(mcpURL, narrow, log);
  const listed = await small.client.callTool({ name: 'list_signals', arguments: { page_size: 1 } });
  check('read-only token: list_signals works', !listed.isError);
  const raw = await fetch(`${base}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${narrow.saved.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_signals', arguments: { query: 'robots' } } }),
  });
  await raw.text();
  const challenge = raw.headers.get('www-authenticate') ?? '';
  check('read-only token: search_signals is 403 insufficient_scope naming both scopes',
    raw.status === 403 && challenge.includes('error="insufficient_scope"') && challenge.includes('scope="signals:read signals:search"'),
    `${raw.status} ${challenge}`);
  let denied;
  try {
    await small.client.callTool({ name: 'search_signals', arguments: { query: 'robots' } });
  } catch (err) {
    denied = err;
  }
  check('read-only token: the SDK client tries to step up once, then reports the 403',
    denied?.code === 403 && /upscoping/.test(denied?.message ?? ''), String(denied));
  narrow.invalidateCredentials('tokens');
  const wider = await auth(narrow, { serverUrl: mcpURL, scope: 'signals:read signals:search', fetchFn: recordingFetch(log) });
  const both = await signInAndConsent(browser, narrow.authorizationURLs.at(-1), { email: 'oauth-ci@example.com', outbox });
  await auth(narrow, { serverUrl: mcpURL, authorizationCode: both.redirect.searchParams.get('code'), fetchFn: recordingFetch(log) });
  const searched = await small.client.callTool({ name: 'search_signals', arguments: { query: 'robots', limit: 2 } });
  check('authorized again with both scopes: search_signals works',
    wider === 'REDIRECT' && narrow.saved?.scope === 'signals:read signals:search' && !searched.isError,
    JSON.stringify(searched.structuredContent)?.slice(0, 300));
  await small.client.close();
}

const dir = mkdtempSync(path.join(tmpdir(), 'signals-oauth-'));
let service;
try {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  service = await startService(binary, port, base, dir);
  console.log('== TypeScript SDK OAuth client (auth(), OAuthClientProvider, outbox sign-in, consent)');
  await flow(base, path.join(dir, 'outbox'));
} catch (err) {
  check('run', false, err.stack);
} finally {
  service?.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${counts.passed} passed, ${counts.failed} failed`);
process.exitCode = counts.failed === 0 ? 0 : 1;
