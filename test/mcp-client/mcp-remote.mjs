// Connects mcp-remote, the stdio bridge that desktop MCP clients use for
// remote servers, to a real `signals serve --demo` process with OAuth and
// no key:
//
//   node mcp-remote.mjs path/to/signals
//
// The TypeScript SDK's stdio client starts mcp-remote as a desktop client
// would, with its default callback host (localhost), a fixed callback port
// and its own token folder (MCP_REMOTE_CONFIG_DIR). mcp-remote registers,
// then opens the authorization URL with the system opener, which honours
// BROWSER: here a script that writes the URL to a file. The headless
// browser (browser.mjs) opens that URL, signs in through the outbox,
// presses Allow and follows the redirect to mcp-remote's callback server;
// mcp-remote exchanges the code and the client lists the tools and calls
// them through it over stdio. A second mcp-remote on the same folder then
// connects with the stored tokens, without a browser.
//
// Prints "N passed, N failed" and exits non-zero on any failure.

import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { Browser, signInAndConsent } from './browser.mjs';
import { checker, freePort, startService } from './service.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const binary = process.argv[2];
if (!binary) {
  console.error('usage: node mcp-remote.mjs path/to/signals');
  process.exit(2);
}

const counts = checker();
const { check } = counts;

const node = process.execPath;
const proxy = path.join(here, 'node_modules', 'mcp-remote', 'dist', 'proxy.js');

// bridge starts mcp-remote for url through the SDK's stdio client and
// collects what it logs on stderr.
function bridge(url, callbackPort, env) {
  const transport = new StdioClientTransport({
    command: node,
    args: [proxy, url, String(callbackPort), '--transport', 'http-only'],
    env,
    stderr: 'pipe',
  });
  const out = { log: '' };
  transport.stderr.on('data', (d) => (out.log += d));
  const client = new Client({ name: 'signals-ci-mcp-remote', version: '1.0.0' });
  return { client, transport, out };
}

// waitFor resolves with what get returns once it is truthy.
async function waitFor(what, get, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// within resolves with promise, or rejects with message() after ms.
async function within(promise, ms, message) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(message())), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function calls(client, label) {
  const { tools } = await client.listTools();
  check(`${label}: tools/list through mcp-remote has the three tools`,
    ['get_signal', 'list_signals', 'search_signals'].every((n) => tools.some((t) => t.name === n)) && tools.length === 3,
    tools.map((t) => t.name).join(', '));
  const list = await client.callTool({ name: 'list_signals', arguments: { page_size: 2 } });
  check(`${label}: list_signals through mcp-remote`, !list.isError && list.structuredContent?.signals?.length === 2,
    JSON.stringify(list)?.slice(0, 300));
  const found = await client.callTool({ name: 'search_signals', arguments: { query: 'robots', limit: 2 } });
  check(`${label}: search_signals through mcp-remote`, !found.isError && Array.isArray(found.structuredContent?.matches),
    JSON.stringify(found)?.slice(0, 300));
}

const dir = mkdtempSync(path.join(tmpdir(), 'signals-mcp-remote-'));
let service;
const open = [];
try {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  service = await startService(binary, port, base, dir);
  const outbox = path.join(dir, 'outbox');
  const configDir = path.join(dir, 'mcp-auth');
  mkdirSync(configDir);

  // The "browser" mcp-remote opens: a script that notes the URL.
  const opened = path.join(dir, 'opened');
  const browserScript = path.join(dir, 'browser.sh');
  writeFileSync(browserScript, `#!/bin/sh\nprintf '%s\\n' "$1" >> '${opened}'\n`);
  chmodSync(browserScript, 0o755);
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: dir,
    BROWSER: browserScript,
    MCP_REMOTE_CONFIG_DIR: configDir,
  };
  const callbackPort = await freePort();

  console.log('== mcp-remote (stdio bridge) with OAuth');
  const first = bridge(`${base}/mcp`, callbackPort, env);
  open.push(first);
  const connected = first.client.connect(first.transport);
  const authURL = new URL(await waitFor('mcp-remote to open the authorization URL',
    () => existsSync(opened) && readFileSync(opened, 'utf8').split('\n')[0]));
  check('mcp-remote registered and opened the authorization URL through BROWSER',
    authURL.href.startsWith(`${base}/oauth/authorize?`) && authURL.searchParams.get('code_challenge_method') === 'S256' &&
    authURL.searchParams.get('resource') === `${base}/mcp` &&
    authURL.searchParams.get('redirect_uri') === `http://localhost:${callbackPort}/oauth/callback`,
    authURL.href);
  const printed = first.out.log.match(/Please authorize this client by visiting:\n(\S+)/)?.[1];
  check('mcp-remote also printed the URL for a person to copy',
    printed && new URL(printed).searchParams.get('state') === authURL.searchParams.get('state') &&
    new URL(printed).searchParams.get('code_challenge') === authURL.searchParams.get('code_challenge'),
    `${printed} vs ${authURL}`);

  const browser = new Browser(base);
  const { redirect, seen } = await signInAndConsent(browser, authURL, { email: 'mcp-remote@example.com', outbox });
  check('consent page names mcp-remote', /MCP CLI Proxy|mcp-remote/i.test(seen.consent.body),
    seen.consent.body.match(/<h1>[^<]*<\/h1>/)?.[0]);
  // The browser follows the redirect to mcp-remote's callback server.
  const callback = await fetch(redirect, { redirect: 'manual' });
  await callback.text();
  check('mcp-remote\'s callback server took the code', callback.status === 200 && redirect.searchParams.get('iss') === base,
    `${callback.status} ${redirect.origin}${redirect.pathname} iss=${redirect.searchParams.get('iss')}`);
  await within(connected, 60_000, () => `mcp-remote did not connect:\n${first.out.log}`);
  check('the stdio client is connected through mcp-remote', true);
  await calls(first.client, 'first run');
  await first.client.close();
  const stored = readdirSync(configDir, { recursive: true }).filter((f) => String(f).endsWith('_tokens.json'));
  check('mcp-remote stored the tokens in its folder', stored.length === 1, readdirSync(configDir, { recursive: true }).join(', '));

  // A second run on the same folder connects with the stored tokens.
  const before = readFileSync(opened, 'utf8').split('\n').filter(Boolean).length;
  const second = bridge(`${base}/mcp`, callbackPort, env);
  open.push(second);
  await within(second.client.connect(second.transport), 60_000, () => `second run did not connect:\n${second.out.log}`);
  await calls(second.client, 'second run');
  check('second run: no browser opened', readFileSync(opened, 'utf8').split('\n').filter(Boolean).length === before);
  await second.client.close();
} catch (err) {
  check('run', false, `${err.stack}\n${open.map((b) => b.out.log).join('\n---\n').slice(-4000)}`);
} finally {
  for (const b of open) await b.client.close().catch(() => {});
  service?.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${counts.passed} passed, ${counts.failed} failed`);
process.exitCode = counts.failed === 0 ? 0 : 1;
