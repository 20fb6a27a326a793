// Starts a real `signals serve --demo` for the tests of this folder.

import { spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

// freePort resolves with a TCP port on 127.0.0.1 that nothing listens on.
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// startService runs `binary serve --demo` on 127.0.0.1:port with a
// temporary database in dir and resolves with the process and the API key
// it prints once, when the service answers its health check.
export async function startService(binary, port, baseURL, dir) {
  const child = spawn(binary, ['serve', '--demo'], {
    env: {
      ...process.env,
      SIGNALS_ADDR: `127.0.0.1:${port}`,
      SIGNALS_BASE_URL: baseURL,
      SIGNALS_DATABASE: path.join(dir, 'signals.db'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`signals exited with ${child.exitCode}:\n${stderr}`);
    const key = stdout.match(/sig_[0-9A-Za-z]+/)?.[0];
    if (key) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/healthz`);
        if (res.ok) return { child, key };
      } catch {
        // not listening yet
      }
    }
    if (Date.now() > deadline) throw new Error(`signals did not start:\n${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// checker counts and prints named checks: check(name, ok, detail).
export function checker() {
  const c = { passed: 0, failed: 0 };
  c.check = (name, ok, detail = '') => {
    if (ok) {
      c.passed++;
      console.log(`ok   ${name}`);
    } else {
      c.failed++;
      console.log(`FAIL ${name}${detail ? `: ${detail}` : ''}`);
    }
  };
  return c;
}
