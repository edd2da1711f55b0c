import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, Socket, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/client/api-client.js';
import { daemonsPerTest, until } from '../helpers/daemon.js';
import { errorBody, rawRequest } from '../helpers/raw-http.js';

const daemon = daemonsPerTest(afterEach);

const PATH = process.env.PATH ?? '/usr/bin:/bin';

/** An address of this machine that is not loopback, if it has one. */
function externalAddress(): string | undefined {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && !a.internal) return a.address;
  }
  return undefined;
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = new Socket();
    s.setTimeout(2000);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
    s.once('timeout', () => {
      s.destroy();
      resolve(false);
    });
    s.connect(port, host);
  });
}

describe('TCP listener', () => {
  it('listens on loopback only and answers only requests carrying the token from the 0600 token file', async () => {
    const d = daemon({ tcp: { host: '127.0.0.1', port: 0 } });
    await d.start();
    const status = await d.client.status();
    expect(status.tcp).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const port = Number(new URL(status.tcp ?? '').port);
    expect(port).toBeGreaterThan(0);

    expect(statSync(d.paths.tokenFile).mode & 0o777).toBe(0o600);
    const token = readFileSync(d.paths.tokenFile, 'utf8').trim();
    expect(token.length).toBeGreaterThanOrEqual(16);

    const target = { host: '127.0.0.1', port };
    const refused: [string, Record<string, string>, string?][] = [
      ['no header', {}],
      ['wrong token', { authorization: `Bearer ${'x'.repeat(token.length)}` }],
      ['token with one char changed', { authorization: `Bearer ${token.slice(0, -1)}${token.endsWith('a') ? 'b' : 'a'}` }],
      ['token prefix', { authorization: `Bearer ${token.slice(0, 16)}` }],
      ['token plus more', { authorization: `Bearer ${token}x` }],
      ['empty bearer', { authorization: 'Bearer ' }],
      ['lowercase scheme', { authorization: `bearer ${token}` }],
      ['basic auth', { authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` }],
      ['bare token', { authorization: token }],
      ['token in another header', { 'x-token': token }],
      ['token in the query', {}, `?token=${encodeURIComponent(token)}`],
    ];
    for (const [what, headers, query] of refused) {
      for (const [method, path, body] of [
        ['GET', '/v1/status'],
        ['GET', '/v1/tasks'],
        ['POST', '/v1/tasks', JSON.stringify({ command: ['touch', `${d.home}/pwned`], cwd: d.home, env: { PATH } })],
        ['GET', '/v1/no-such-endpoint'],
      ] as const) {
        const res = await rawRequest(target, { method, path: `${path}${query ?? ''}`, headers, ...(body ? { body } : {}) });
        expect({ what, method, path, status: res.status }).toEqual({ what, method, path, status: 401 });
        const e = errorBody(res);
        expect(typeof e === 'string' ? e : e.code).toBe('unauthorized');
      }
    }
    expect(existsSync(`${d.home}/pwned`)).toBe(false);
    expect(await d.client.list(true)).toEqual([]);

    // With the token, the typed client works over TCP: status, run, wait, output.
    const tcp = new ApiClient({ url: status.tcp ?? '', token });
    // Over TCP as over the socket, status names the TCP address it is listening on.
    expect(await tcp.status()).toMatchObject({ pid: status.pid, tcp: status.tcp });
    const t = await tcp.run({ command: ['echo', 'over tcp'], cwd: d.home, env: { PATH }, stdin: false });
    const done = await until(async () => {
      const r = await tcp.wait(t.id, 5);
      return !r.timedOut && r.task;
    });
    expect(done).toMatchObject({ status: 'exited', exitCode: 0 });
    expect((await tcp.output(t.id)).data.toString()).toBe('over tcp\n');

    // Not reachable from outside: nothing listens on the machine's other addresses.
    const external = externalAddress();
    if (external) expect(await connects(external, port)).toBe(false);
    expect(await connects('127.0.0.1', port)).toBe(true);
  });

  for (const host of ['0.0.0.0', '192.0.2.2', '::', 'example.com', '127.0.0.2']) {
    it(`refuses to start with a non-loopback host ${host}`, async () => {
      const d = daemon({ tcp: { host, port: 0 } });
      const r = await d.cli(['daemon'], { timeoutMs: 15_000 });
      expect(r.code).toBe(78);
      expect(r.stderr).toContain(d.paths.configFile);
      expect(r.stderr).toMatch(/tcp\.host/);
      expect(existsSync(d.paths.socket)).toBe(false);
      expect(existsSync(d.paths.tokenFile)).toBe(false);
    });
  }

  describe('start-up failures', () => {
    let blocker: Server | undefined;
    afterEach(async () => {
      await new Promise<void>((r) => (blocker ? blocker.close(() => r()) : r()));
      blocker = undefined;
    });

    it('exits with a clear error, instead of staying up half-started, when the TCP port is taken', async () => {
      blocker = createServer();
      await new Promise<void>((r) => blocker?.listen(0, '127.0.0.1', () => r()));
      const addr = blocker.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      const d = daemon({ tcp: { host: '127.0.0.1', port } });
      const r = await d.cli(['daemon'], { timeoutMs: 10_000 });
      expect(r.code).toBe(78);
      expect(r.stderr).toContain(`127.0.0.1:${port}`);
      expect(r.stderr).toMatch(/in use/);
      // Nothing answers and the lock is free: a daemon without TCP starts fine.
      await expect(d.client.status()).rejects.toThrow(/not running/);
      writeFileSync(d.paths.configFile, JSON.stringify({ logLevel: 'debug' }));
      await d.start();
      expect((await d.client.status()).tcp).toBeNull();
    });

    it('refuses a token file that others can read', async () => {
      const d = daemon({ tcp: { host: '127.0.0.1', port: 0 } });
      await d.start();
      await d.stop();
      chmodSync(d.paths.tokenFile, 0o644);
      const r = await d.cli(['daemon'], { timeoutMs: 10_000 });
      expect(r.code).toBe(78);
      expect(r.stderr).toContain(d.paths.tokenFile);
      expect(r.stderr).toContain('chmod 600');
      await expect(d.client.status()).rejects.toThrow(/not running/);
    });
  });
});
