// Checks the OpenAPI document as programs use it, against a real
// `signals serve --demo` process:
//
//   node clients.mjs path/to/signals
//
// 1. Redocly CLI lints the served /openapi.json (redocly.yaml).
// 2. openapi-typescript generates the types of a TypeScript client; tsc
//    compiles them with openapi-client.ts (strict), and the program calls
//    list, read one (ids that need URL-encoding), search and usage through
//    openapi-fetch.
// 3. oapi-codegen (pinned below, run with `go run`) generates a Go client;
//    the module test/goclient builds with it and makes the same calls.
//
// Generated code is written to a temporary folder only. Prints one line per
// check, then "N passed, N failed", and exits non-zero on any failure.

import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { checker, freePort, startService } from './service.mjs';

// The Go client generator, pinned.
const oapiCodegen = 'github.com/oapi-codegen/oapi-codegen/v2/cmd/oapi-codegen@v2.8.2';

const here = path.dirname(fileURLToPath(import.meta.url));
const goclient = path.join(here, '..', 'goclient');
const binary = process.argv[2];
if (!binary) {
  console.error('usage: node clients.mjs path/to/signals');
  process.exit(2);
}

const counts = checker();
const { check } = counts;

// run executes a command and resolves with its exit code and output.
function run(cmd, args, { cwd, timeout = 600_000 } = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill(), timeout);
    child.on('error', (err) => (out += String(err)));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, out });
    });
  });
}

// step runs a command as one check, showing its output when it fails.
async function step(name, cmd, args, opts) {
  const res = await run(cmd, args, opts);
  check(name, res.ok, res.ok ? '' : `\n${res.out.slice(-4000)}`);
  return res;
}

// report passes on the check lines a client program printed; a program
// that failed without saying which check failed is a failure of its own.
function report(name, res) {
  let failures = 0;
  for (const line of res.out.split('\n')) {
    if (line.startsWith('ok   ')) counts.passed++;
    else if (line.startsWith('FAIL ')) counts.failed++, failures++;
    else continue;
    console.log(line);
  }
  if (!res.ok && failures === 0) check(name, false, `\n${res.out.slice(-4000)}`);
}

const bin = (pkg, file) => path.join(here, 'node_modules', pkg, file);
const dir = mkdtempSync(path.join(tmpdir(), 'signals-clients-'));
let service;
try {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  service = await startService(binary, port, base, dir);
  const spec = path.join(dir, 'openapi.json');
  writeFileSync(spec, await fetch(`${base}/openapi.json`).then((r) => r.text()));

  console.log('== Redocly CLI lint of /openapi.json');
  await step('redocly lint', process.execPath,
    [bin('@redocly/cli', 'bin/cli.js'), 'lint', '--config', path.join(here, 'redocly.yaml'), spec]);

  console.log('== TypeScript client (openapi-typescript, openapi-fetch)');
  const ts = path.join(dir, 'ts');
  mkdirSync(ts);
  symlinkSync(path.join(here, 'node_modules'), path.join(ts, 'node_modules'));
  copyFileSync(path.join(here, 'openapi-client.ts'), path.join(ts, 'openapi-client.ts'));
  writeFileSync(path.join(ts, 'package.json'), JSON.stringify({ type: 'module' }));
  writeFileSync(path.join(ts, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true,
      noUncheckedIndexedAccess: true, types: ['node'], outDir: 'out',
    },
    files: ['openapi-client.ts'],
  }));
  const generated = await step('openapi-typescript generates the types', process.execPath,
    [bin('openapi-typescript', 'bin/cli.js'), spec, '-o', path.join(ts, 'schema.ts')]);
  const compiled = generated.ok &&
    (await step('tsc compiles the client (strict)', process.execPath, [bin('typescript', 'bin/tsc'), '-p', ts])).ok;
  if (compiled) {
    report('TypeScript client', await run(process.execPath, [path.join(ts, 'out', 'openapi-client.js'), base, service.key]));
  }

  console.log('== Go client (oapi-codegen)');
  const go = path.join(dir, 'go');
  mkdirSync(path.join(go, 'signals'), { recursive: true });
  for (const f of ['go.mod', 'go.sum', 'main.go']) copyFileSync(path.join(goclient, f), path.join(go, f));
  const goGenerated = await step(`${oapiCodegen.split('/').pop()} generates the client`, 'go',
    ['run', oapiCodegen, '-generate', 'types,client', '-package', 'signals', '-o', path.join(go, 'signals', 'signals.gen.go'), spec],
    { cwd: go });
  const built = goGenerated.ok && (await step('go vet and go build the client', 'sh', ['-c', 'go vet . && go build -o goclient .'], { cwd: go })).ok;
  if (built) {
    report('Go client', await run(path.join(go, 'goclient'), [base, service.key]));
  }
} catch (err) {
  check('run', false, err.stack);
} finally {
  service?.child.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
console.log(`${counts.passed} passed, ${counts.failed} failed`);
process.exitCode = counts.failed === 0 ? 0 : 1;
