// A client of the HTTP API whose types openapi-typescript generated from the
// served /openapi.json, calling the API through openapi-fetch. clients.mjs
// writes the generated ./schema.ts beside a copy of this file, compiles both
// with tsc (strict) and runs the result against `signals serve --demo`:
//
//   node openapi-client.js BASE_URL API_KEY
//
// Prints one line per check and exits non-zero on any failure.

import createClient from 'openapi-fetch';

import type { components, paths } from './schema.js';

type Signal = components['schemas']['Signal'];
type Usage = components['schemas']['UsageResponse'];

const [baseUrl, key] = process.argv.slice(2);
if (!baseUrl || !key) {
  console.error('usage: node openapi-client.js BASE_URL API_KEY');
  process.exit(2);
}

let failed = 0;
function check(name: string, ok: boolean, detail: unknown = ''): void {
  if (!ok) failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} TypeScript client: ${name}${ok || !detail ? '' : `: ${JSON.stringify(detail)}`}`);
}

const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${key}` } });

const list = await client.GET('/api/v1/signals', {
  params: { query: { page_size: 3, language: 'en', tags: ['funding', 'job', 'product_launch'] } },
});
check('list: a page of 3 English signals',
  list.response.status === 200 && list.data?.signals.length === 3 && list.data.signals.every((s) => s.language === 'en'),
  list.error ?? list.data);

// Ids may hold /, ?, #, %, +, spaces and non-ASCII. Read back one id for
// each character that needs URL-encoding among the first 100 signals.
const covered = new Set<string>();
const odd: string[] = [];
for (const n of [1, 2]) {
  const page = await client.GET('/api/v1/signals', { params: { query: { page: n, page_size: 50 } } });
  check(`list: page ${n} of 50`, page.data?.signals.length === 50, page.error);
  for (const { id } of page.data?.signals ?? []) {
    const classes = [...id].filter((c) => !/[A-Za-z0-9._~-]/.test(c)).map((c) => (c < '\x80' ? c : 'non-ASCII'));
    if (classes.some((c) => !covered.has(c))) {
      odd.push(id);
      classes.forEach((c) => covered.add(c));
    }
  }
}
check('list: the first 100 signals have ids with /, ?, #, %, a space and non-ASCII',
  ['/', '?', '#', '%', ' ', 'non-ASCII'].every((c) => covered.has(c)), [...covered]);
for (const id of odd) {
  const one = await client.GET('/api/v1/signals/{id}', { params: { path: { id } } });
  const s: Signal | undefined = one.data;
  check(`read ${JSON.stringify(id)}: that signal with its text`,
    one.response.status === 200 && s?.id === id && typeof s.text === 'string' && s.textChars === s.text_chars,
    one.error ?? s?.id);
}

const found = await client.POST('/api/v1/signals/search', {
  body: { query: 'funding round for an AI startup', language: ['en'], limit: 5 },
});
check('search: matches with cache_hit and searches_remaining',
  found.response.status === 200 && Array.isArray(found.data?.matches) && found.data.matches.length <= 5 &&
    typeof found.data.cache_hit === 'boolean' && typeof found.data.searches_remaining === 'number' &&
    found.data.searchedAt === found.data.searched_at,
  found.error ?? found.data);

const bad = await client.GET('/api/v1/signals', { params: { query: { page_size: 99 } } });
check('list with page_size 99: a typed 400 problem naming the parameter',
  bad.response.status === 400 && bad.error?.code === 'invalid_parameter' && bad.error.param === 'page_size' &&
    bad.error.maximum === 50,
  bad.error);

const usage = await client.GET('/api/v1/usage');
const u: Usage | undefined = usage.data;
check('usage: counters with their deprecated aliases',
  usage.response.status === 200 && u !== undefined && u.daily_requests.used >= 5 + odd.length &&
    JSON.stringify(u.dailyRequests) === JSON.stringify(u.daily_requests) && u.resetAt === u.reset_at &&
    typeof u.minute_requests.reset_at === 'string',
  usage.error ?? u);

process.exitCode = failed === 0 ? 0 : 1;
