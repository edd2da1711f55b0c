import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestDaemon, until } from '../helpers/daemon.js';
import { errorBody, pool, rawRequest, type RawRequest } from '../helpers/raw-http.js';

const PATH = process.env.PATH ?? '/usr/bin:/bin';
const MiB = 1024 * 1024;

/** A request that must be refused, with the status it must get (or any 4xx). */
interface Case extends RawRequest {
  what: string;
  status?: number;
}

/** Deterministic pseudo-random numbers, so a failure can be replayed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** Every file and directory under `root`, except the daemon's state directory, with size and mtime. */
function snapshot(root: string, skip: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (p === skip) continue;
      const st = statSync(p);
      out.set(relative(root, p), `${e.isDirectory() ? 'd' : 'f'}:${e.isDirectory() ? 0 : st.size}:${st.mtimeMs}:${st.mode}`);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(root);
  return out;
}

function allNames(root: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      out.push(join(d, e.name));
      if (e.isDirectory()) walk(join(d, e.name));
    }
  };
  walk(root);
  return out;
}

/** The marker every hostile name and id carries: no file or directory may ever be named after it. */
const EVIL = 'PWNED';

function buildCases(finished: string, running: string, canary: string): Case[] {
  const cases: Case[] = [];
  const json = (what: string, method: string, path: string, body: unknown, status?: number) =>
    cases.push({ what, method, path, body: JSON.stringify(body), headers: { 'content-type': 'application/json' }, ...(status ? { status } : {}) });
  const raw = (what: string, method: string, path: string, body: string | Buffer, status?: number) =>
    cases.push({ what, method, path, body, headers: { 'content-type': 'application/json' }, ...(status ? { status } : {}) });
  const good = { command: ['echo', 'hi'], cwd: '/tmp', env: { PATH } };
  const bodyEndpoints = ['/v1/tasks', `/v1/tasks/${running}/input`, `/v1/tasks/${running}/kill`];

  // --- bad JSON -------------------------------------------------------------------------------
  const badJson = [
    '{',
    '}',
    '[',
    '{"command":',
    '{"command":["echo"]',
    '{"command":["echo"],}',
    "{'command':['echo']}",
    'nul',
    'undefined',
    'NaN',
    'Infinity',
    '-',
    '0x10',
    '"unterminated',
    '{"a":1}}',
    '{"a":1}{"b":2}',
    '\u0000',
    '\uFEFF{}',
    '{"a":"\\x41"}',
    '{"a":"\\u12"}',
    '{"a" 1}',
    '{a:1}',
    '[1,2',
    '{"command":["echo"],"cwd":"/tmp"',
    '// comment\n{}',
    '{"a":01}',
    'tru',
  ];
  const r = rng(42);
  for (let i = 0; i < 80; i++) {
    const bytes = Buffer.alloc(1 + Math.floor(r() * 200));
    for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(r() * 256);
    bytes[0] = 0x7b; // '{' then noise: never valid JSON
    bytes[bytes.length - 1] = 0x2c; // ends in ','
    badJson.push(bytes.toString('latin1'));
  }
  for (const ep of bodyEndpoints) {
    for (const b of badJson) raw(`bad JSON to ${ep}`, 'POST', ep, Buffer.from(b, 'latin1'), 400);
  }

  // --- wrong types and missing fields in a run request -----------------------------------------
  const runBodies: unknown[] = [
    null,
    [],
    'echo hi',
    42,
    true,
    {},
    { command: ['echo'] },
    { cwd: '/tmp' },
    { env: { A: 'b' } },
    { ...good, command: 'echo hi' },
    { ...good, command: 1 },
    { ...good, command: null },
    { ...good, command: {} },
    { ...good, command: [] },
    { ...good, command: [1] },
    { ...good, command: [null] },
    { ...good, command: [['echo']] },
    { ...good, command: [''] },
    { ...good, command: ['echo', 'a\u0000b'] },
    { ...good, command: ['ech\u0000o'] },
    { ...good, command: Array.from({ length: 5000 }, () => 'a') },
    { ...good, command: ['echo', 'x'.repeat(70_000)] },
    { ...good, command: [`../../${canary}/${EVIL}-cmd`] },
    { ...good, command: [`/nonexistent/${EVIL}`] },
    { ...good, cwd: 1 },
    { ...good, cwd: '' },
    { ...good, cwd: null },
    { ...good, cwd: 'relative' },
    { ...good, cwd: `../${canary}` },
    { ...good, cwd: `%2e%2e%2f${canary}` },
    { ...good, cwd: `/tmp/${EVIL}-nonexistent` },
    { ...good, cwd: '/etc/passwd' },
    { ...good, cwd: '/tmp\u0000/x' },
    { ...good, cwd: 'x'.repeat(5000) },
    { ...good, name: 1 },
    { ...good, name: '' },
    { ...good, name: null },
    { ...good, name: 'a\nb' },
    { ...good, name: 'a\u0000b' },
    { ...good, name: 'x'.repeat(201) },
    { ...good, name: ['a'] },
    { ...good, env: 'A=b' },
    { ...good, env: [] },
    { ...good, env: ['A=b'] },
    { ...good, env: { A: 1 } },
    { ...good, env: { A: null } },
    { ...good, env: { A: ['b'] } },
    { ...good, env: { '': 'v' } },
    { ...good, env: { '=': 'v' } },
    { ...good, env: { 'A=B': 'v' } },
    { ...good, env: { 'A\u0000B': 'v' } },
    { ...good, env: { ['K'.repeat(1025)]: 'v' } },
    { ...good, env: { A: 'v'.repeat(140_000) } },
    { ...good, env: { PATH, SECRET: 'abc\u0000def' } },
    { ...good, env: { [`../${EVIL}`]: 'v', '=x': 'y' } },
    { ...good, stallAfterSeconds: '10' },
    { ...good, stallAfterSeconds: -1 },
    { ...good, stallAfterSeconds: 0 },
    { ...good, stallAfterSeconds: 1e308 },
    { ...good, stallAfterSeconds: Number.MAX_SAFE_INTEGER + 2 },
    { ...good, stallAfterSeconds: null },
    { ...good, stdin: 'yes' },
    { ...good, stdin: 1 },
    { ...good, stdin: null },
    { ...good, extra: true },
    { ...good, id: '7' },
    { ...good, status: 'exited' },
    { ...good, constructor: { prototype: { polluted: 1 } } },
  ];
  for (const b of runBodies) json('bad run request', 'POST', '/v1/tasks', b, 400);
  raw('__proto__ key', 'POST', '/v1/tasks', `{"command":["echo"],"cwd":"/tmp","__proto__":{"polluted":1}}`, 400);
  // Numbers JSON can spell but JavaScript cannot hold.
  for (const n of ['1e999', '-1e999', '1e-999999', '123456789012345678901234567890', '-0']) {
    raw(`huge number ${n}`, 'POST', '/v1/tasks', `{"command":["echo"],"cwd":"/tmp","stallAfterSeconds":${n}}`, 400);
  }

  // --- path traversal in names: labels never name files ----------------------------------------
  const traversal = [
    `../../${canary}/${EVIL}`,
    `../${EVIL}`,
    `..`,
    `../../../../../../tmp/${EVIL}`,
    `a/../../${EVIL}`,
    `..\\..\\${EVIL}`,
    `%2e%2e%2f${EVIL}`,
    `%2e%2e/${EVIL}`,
    `..%2f..%2f${canary}%2f${EVIL}`,
    `%2E%2E%2F%2E%2E%2F${EVIL}`,
    `.%2e/${EVIL}`,
    `%252e%252e%252f${EVIL}`,
    `..%5c${EVIL}`,
    `/${canary}/../${EVIL}`,
  ];
  for (const name of traversal) json(`traversal in name ${name}`, 'POST', '/v1/tasks', { ...good, name }, 400);

  // --- input and kill bodies --------------------------------------------------------------------
  const inputBodies: unknown[] = [
    null,
    [],
    'text',
    1,
    { text: 1 },
    { text: null },
    { text: ['a'] },
    { eof: 'yes' },
    { eof: 1 },
    { text: 'a', extra: 1 },
    { data: 'a' },
  ];
  for (const b of inputBodies) json('bad input request', 'POST', `/v1/tasks/${running}/input`, b, 400);
  const signals: unknown[] = [
    'SIGFOO',
    'FOO',
    '',
    'SIG',
    'SIGKILLX',
    '9',
    '-9',
    9,
    -9,
    0,
    null,
    {},
    [],
    ['SIGTERM'],
    true,
    'SIGRTMIN',
    'kill -9',
    'SIGTERM\u0000',
    'sigterm ',
    ' TERM',
    'TERM;rm -rf /',
    `../${EVIL}`,
    '%53%49%47%4b%49%4c%4c',
    'SIGKILL\n',
    'x'.repeat(10_000),
    '𝕊𝕀𝔾𝕂𝕀𝕃𝕃',
  ];
  for (const s of signals) json(`unknown signal ${JSON.stringify(s)?.slice(0, 30)}`, 'POST', `/v1/tasks/${running}/kill`, { signal: s }, 400);
  json('kill with extra field', 'POST', `/v1/tasks/${running}/kill`, { signal: 'SIGTERM', pid: 1 }, 400);
  json('kill as array', 'POST', `/v1/tasks/${running}/kill`, ['SIGKILL'], 400);

  // --- oversized bodies (default limit 1 MiB) ---------------------------------------------------
  const bigRun = Buffer.from(JSON.stringify({ ...good, env: { A: 'x'.repeat(MiB) } }));
  const bigJunk = Buffer.alloc(2 * MiB, 0x61);
  for (const ep of bodyEndpoints) {
    raw(`oversized (content-length) to ${ep}`, 'POST', ep, bigRun, 413);
    // Several of each: an answer sent while the client still writes is a race the client must not lose.
    for (let i = 0; i < 6; i++) {
      raw(`oversized junk to ${ep}`, 'POST', ep, bigJunk, 413);
      cases.push({ what: `oversized chunked to ${ep}`, method: 'POST', path: ep, body: bigJunk, chunked: true, status: 413 });
    }
    cases.push({ what: `declared oversized to ${ep}`, method: 'POST', path: ep, body: '{}', headers: { 'content-length': 10 * 1024 ** 3 }, status: 413 });
  }
  cases.push({ what: 'oversized just over the limit', method: 'POST', path: '/v1/tasks', body: Buffer.alloc(MiB + 1, 0x20), status: 413 });
  cases.push({ what: 'oversized chunked 1 MiB + 1', method: 'POST', path: '/v1/tasks', body: Buffer.alloc(MiB + 1, 0x20), chunked: true, status: 413 });

  // --- ids: unknown, malformed, traversal (raw, encoded, double-encoded) ---------------------
  const taskPaths = (id: string): [string, string][] => [
    ['GET', `/v1/tasks/${id}`],
    ['DELETE', `/v1/tasks/${id}`],
    ['GET', `/v1/tasks/${id}/output`],
    ['GET', `/v1/tasks/${id}/output?offset=0&limit=10`],
    ['GET', `/v1/tasks/${id}/follow`],
    ['GET', `/v1/tasks/${id}/wait?timeout=0`],
    ['POST', `/v1/tasks/${id}/input`],
    ['POST', `/v1/tasks/${id}/kill`],
  ];
  const bodyFor = (method: string, path: string) => (method !== 'POST' ? undefined : path.endsWith('/kill') ? '{"signal":"SIGKILL"}' : '{"text":"y\\n"}');
  for (const id of ['999999', '123456789012', '2147483648', '42424242']) {
    for (const [m, p] of taskPaths(id)) {
      const body = bodyFor(m, p);
      cases.push({ what: `unknown id ${id}`, method: m, path: p, status: 404, ...(body ? { body } : {}) });
    }
  }
  const badIds = [
    '..',
    '.',
    '%2e%2e',
    '.%2e',
    '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    `..%2f..%2f${canary}%2f${EVIL}`,
    `%2e%2e%2f%2e%2e%2f${EVIL}`,
    `%252e%252e%252f${EVIL}`,
    `..%5c..%5c${EVIL}`,
    `1%2f..%2f..%2f${EVIL}`,
    `%2E%2E%2F${EVIL}`,
    `..%c0%af${EVIL}`,
    `%c0%ae%c0%ae%2f${EVIL}`,
    '0',
    '-1',
    '01',
    '1.5',
    '1e3',
    '0x1',
    'abc',
    '%201',
    '1%20',
    '%00',
    '1%00',
    '%zz',
    '%',
    '%2',
    `${EVIL}`,
    '1234567890123',
    '99999999999999999999999999',
    '+1',
    '1;rm',
    '1%3Brm',
    "1'",
    '1"',
    '%7B%7D',
    '~',
    '%7e',
    '*',
    '1,2',
    '%2f',
    '%5c',
    '%0a1',
  ];
  const pieces = ['..', '.', '%2e', '%2E', '%2f', '%2F', '%5c', '/', '%00', '%25', EVIL, canary, '1', 'etc', 'passwd'];
  for (let i = 0; i < 30; i++) {
    const n = 2 + Math.floor(r() * 6);
    badIds.push(Array.from({ length: n }, () => pieces[Math.floor(r() * pieces.length)]).join('') + EVIL);
  }
  for (const id of badIds) {
    for (const [m, p] of taskPaths(id)) {
      const body = bodyFor(m, p);
      cases.push({ what: `bad id ${id}`, method: m, path: p, ...(body ? { body } : {}) });
    }
  }
  // Unencoded ../ is resolved away by URL parsing: it lands on no endpoint.
  for (const p of [`/v1/tasks/../../${EVIL}`, `/v1/tasks/1/../../../${canary}/${EVIL}`, `/../../../tmp/${EVIL}`, `/v1/tasks/./../${EVIL}`]) {
    cases.push({ what: `raw traversal ${p}`, method: 'GET', path: p, status: 404 });
    cases.push({ what: `raw traversal ${p}`, method: 'POST', path: p, body: JSON.stringify(good), status: 404 });
  }

  // --- offsets, limits, lines, timeouts, flags --------------------------------------------------
  const badNums = ['-1', '-0', 'abc', '1.5', '1e3', '', ' 1', '1 ', '0x10', '+1', 'NaN', 'Infinity', '99999999999999999', '1,2', '%2d1', '１'];
  for (const v of badNums) {
    for (const q of ['offset', 'limit', 'lines'])
      cases.push({ what: `output ${q}=${v}`, method: 'GET', path: `/v1/tasks/${finished}/output?${q}=${encodeURIComponent(v)}`, status: 400 });
    cases.push({ what: `follow offset=${v}`, method: 'GET', path: `/v1/tasks/${finished}/follow?offset=${encodeURIComponent(v)}`, status: 400 });
  }
  for (const q of ['limit=0', `limit=${16 * MiB + 1}`, 'lines=100001', 'offset=1&bogus=1', 'tail=5', 'offset=1&offset=x', 'offset[]=1', 'limit=1&limit=-1']) {
    cases.push({ what: `output ${q}`, method: 'GET', path: `/v1/tasks/${finished}/output?${q}`, status: 400 });
  }
  for (const q of ['timeout=-1', 'timeout=abc', 'timeout=1e5', 'timeout=Infinity', 'timeout=', 'timeout=1&x=1', 'seconds=1', 'timeout=0x1']) {
    cases.push({ what: `wait ${q}`, method: 'GET', path: `/v1/tasks/${finished}/wait?${q}`, status: 400 });
  }
  for (const q of ['all=2', 'all=true', 'all=', 'all=yes', 'all=1&foo=1', 'limit=0', 'limit=-5', 'all=-1']) {
    cases.push({ what: `list ${q}`, method: 'GET', path: `/v1/tasks?${q}`, status: 400 });
  }
  cases.push({ what: 'follow with extra query', method: 'GET', path: `/v1/tasks/${finished}/follow?offset=0&lines=2`, status: 400 });

  // --- unknown endpoints and wrong methods ------------------------------------------------------
  const unknown = [
    '/',
    '/v1',
    '/v1/',
    '/v2/status',
    '/v1/statuss',
    '/v1/status/',
    '/v1/status/x',
    '/v1/tasks/',
    `/v1/tasks/${finished}/`,
    `/v1/tasks/${finished}/nope`,
    `/v1/tasks/${finished}/output/extra`,
    '/v1/tasks//output',
    '/etc/passwd',
    '/favicon.ico',
    '/v1/events/x',
    `/v1/${EVIL}`,
    '/V1/STATUS',
    '/v1/tasks/1/output%2f..',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/v1%2fstatus',
    `/${'a'.repeat(4000)}`,
  ];
  for (const p of unknown) {
    cases.push({ what: `unknown endpoint ${p.slice(0, 40)}`, method: 'GET', path: p, status: 404 });
    cases.push({ what: `unknown endpoint ${p.slice(0, 40)}`, method: 'POST', path: p, body: '{}', status: 404 });
  }
  const wrongMethods: [string, string][] = [
    ['POST', '/v1/status'],
    ['PUT', '/v1/status'],
    ['DELETE', '/v1/status'],
    ['PATCH', '/v1/status'],
    ['PUT', '/v1/tasks'],
    ['DELETE', '/v1/tasks'],
    ['PATCH', '/v1/tasks'],
    ['POST', `/v1/tasks/${finished}`],
    ['PUT', `/v1/tasks/${finished}`],
    ['PATCH', `/v1/tasks/${finished}`],
    ['GET', `/v1/tasks/${running}/kill`],
    ['DELETE', `/v1/tasks/${running}/kill`],
    ['GET', `/v1/tasks/${running}/input`],
    ['POST', `/v1/tasks/${finished}/output`],
    ['DELETE', `/v1/tasks/${finished}/output`],
    ['POST', `/v1/tasks/${finished}/wait`],
    ['POST', `/v1/tasks/${finished}/follow`],
    ['POST', '/v1/events'],
    ['OPTIONS', '/v1/tasks'],
    ['OPTIONS', '/v1/status'],
  ];
  for (const [m, p] of wrongMethods) cases.push({ what: `wrong method ${m} ${p}`, method: m, path: p, status: 405, ...(m === 'GET' ? {} : { body: '{}' }) });
  // Methods HTTP does not know at all: refused by the parser, still with a JSON error.
  for (const m of ['FOO', 'GETS', 'BREW', 'X-RUN']) cases.push({ what: `unknown method ${m}`, method: m, path: '/v1/status' });
  // A URL too long for the header limit.
  cases.push({ what: 'URL over the header limit', method: 'GET', path: `/v1/tasks/${'9'.repeat(70_000)}` });
  return cases;
}

describe('malformed API requests', () => {
  let root: string;
  let canaryDir: string;
  let d: TestDaemon;

  beforeAll(() => {
    root = mkdtempSync('/tmp/ns-rel-');
    canaryDir = join(root, 'canary');
    mkdirSync(canaryDir);
    writeFileSync(join(canaryDir, 'keep.txt'), 'canary\n');
    d = new TestDaemon({}, {}, { parent: root });
  });
  afterAll(async () => {
    await d.cleanup();
    rmSync(root, { recursive: true, force: true });
  });

  it('answers 1,000+ malformed requests with a 4xx JSON error, keeps serving, and writes nothing outside its state', async () => {
    await d.start();
    const pid = d.proc?.pid;
    const finished = await d.client.run({ command: ['echo', 'done'], cwd: d.home, env: { PATH }, stdin: false });
    await until(async () => (await d.client.wait(finished.id, 5)).task.status === 'exited');
    const running = await d.client.run({ command: ['sleep', '60'], cwd: d.home, env: { PATH } });
    const before = snapshot(root, d.paths.stateDir);

    const cases = buildCases(finished.id, running.id, 'canary');
    expect(cases.length).toBeGreaterThanOrEqual(1000);
    const failures: string[] = [];
    await pool(cases, 12, async (c) => {
      let res;
      try {
        res = await rawRequest({ socketPath: d.paths.socket }, c);
      } catch (err) {
        failures.push(`${c.what}: ${c.method} ${c.path.slice(0, 80)}: no answer: ${(err as Error).message}`);
        return;
      }
      const where = `${c.what}: ${c.method} ${c.path.slice(0, 80)} -> ${res.status}`;
      const problems: string[] = [];
      if (res.status < 400 || res.status > 499) problems.push('not a 4xx');
      else if (c.status !== undefined && res.status !== c.status) problems.push(`expected ${c.status}`);
      const e = errorBody(res);
      if (typeof e === 'string') problems.push(e);
      if (!String(res.headers['content-type'] ?? '').startsWith('application/json')) problems.push(`content-type ${res.headers['content-type']}`);
      if (problems.length > 0) failures.push(`${where}: ${problems.join('; ')}: ${res.body.slice(0, 160)}`);
    });
    expect(failures.slice(0, 40), `${failures.length} of ${cases.length} requests mishandled`).toEqual([]);

    // Still up, same process, same tasks: no malformed request started, stopped or removed anything.
    expect(d.proc?.exitCode).toBeNull();
    const status = await d.client.status();
    expect(status.pid).toBe(pid);
    const tasks = await d.client.list(true);
    expect(tasks.map((t) => t.id).sort()).toEqual([finished.id, running.id].sort());
    expect(tasks.find((t) => t.id === running.id)?.status).toBe('running');
    expect((await d.client.output(finished.id)).data.toString()).toBe('done\n');
    expect(d.log).not.toMatch(/request failed|"level":50/);

    // Nothing written outside the state directory, and nothing anywhere named after a payload.
    const after = snapshot(root, d.paths.stateDir);
    expect(Object.fromEntries(after)).toEqual(Object.fromEntries(before));
    expect(allNames(root).filter((p) => p.includes(EVIL))).toEqual([]);
    expect(readdirSync('/tmp').filter((p) => p.includes(EVIL))).toEqual([]);
    expect(readdirSync(d.paths.tasksDir).sort()).toEqual([finished.id, running.id].sort());

    await d.client.kill(running.id, 'SIGKILL');
  });

  it('lets a client that is still sending an oversized body read the 413 (no EPIPE or reset)', async () => {
    const body = Buffer.alloc(2 * MiB, 0x61);
    const seen: string[] = [];
    // One at a time, mostly with a content-length: the client is still writing when the daemon knows.
    for (let i = 0; i < 45; i++) {
      const chunked = i % 9 === 8;
      try {
        const res = await rawRequest({ socketPath: d.paths.socket }, { method: 'POST', path: '/v1/tasks', body, chunked });
        seen.push(`${res.status} ${typeof errorBody(res) === 'string' ? 'no JSON error' : 'json'}`);
      } catch (err) {
        seen.push((err as Error).message);
      }
    }
    expect(new Set(seen)).toEqual(new Set(['413 json']));
    expect((await d.client.status()).pid).toBe(d.proc?.pid);
  });
});
