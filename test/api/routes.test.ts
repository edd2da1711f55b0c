import { createServer, request, type Server } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../src/api/endpoints.js';
import { ROUTES, routeUrl, type Route, type RouteName } from '../../src/api/routes.js';
import { LightClient } from '../../src/client/light-client.js';
import { daemonsPerTest } from '../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);
const NAMES = Object.keys(ROUTES) as RouteName[];

/** The route of the table a request matches, by method and path (the query left out). */
function routeOf(method: string, url: string): RouteName | undefined {
  const path = url.split('?')[0] ?? '';
  return NAMES.find((n) => {
    const r: Route = ROUTES[n];
    const pattern = new RegExp(`^${r.path.replace(/:[a-z]+/g, '[^/]+')}$`);
    return r.method === method && pattern.test(path);
  });
}

/** Status and, for an error, its JSON body; a stream that answers 200 is cut at its headers. */
function probe(socketPath: string, method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const req = request({ socketPath, method, path, headers, agent: false }, (res) => {
      const status = res.statusCode ?? 0;
      if (status < 400) {
        res.destroy();
        resolve({ status, body: '' });
        return;
      }
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the route table (api/routes.ts)', () => {
  it('is what the daemon dispatches from: the endpoint table is each route with its schemas, no more and no fewer', () => {
    expect(Object.keys(ENDPOINTS)).toEqual(NAMES);
    for (const n of NAMES) expect({ method: ENDPOINTS[n].method, path: ENDPOINTS[n].path }, n).toEqual(ROUTES[n]);
  });

  it('encodes path parameters and queries one way for every client', () => {
    expect(routeUrl('taskOutput', { id: '12' }, { offset: 3, limit: undefined, text: 1 })).toBe('/v1/tasks/12/output?offset=3&text=1');
    expect(routeUrl('getSession', { id: 'a b/c' })).toBe('/v1/sessions/a%20b%2Fc');
    expect(routeUrl('listMemories', {}, { q: 'x&y=z' })).toBe('/v1/memories?q=x%26y%3Dz');
    expect(() => routeUrl('removeGroup', { name: '..' })).toThrow(/not a valid name/);
  });

  it('is every route a real daemon answers: each reaches its handler (or its validators), and a path off the table does not', async () => {
    const d = newDaemon();
    await d.start();
    const socket = d.paths.socket;
    const unknown = await probe(socket, 'GET', '/v1/nothing-here');
    expect(unknown.body).toContain('no such endpoint');
    const wrongMethod = await probe(socket, 'DELETE', ROUTES.status.path);
    expect(wrongMethod.status).toBe(405);
    for (const n of NAMES) {
      const e = ENDPOINTS[n];
      // A body no schema takes (a bare string): the call stops at validation, so nothing is started.
      const r = await probe(socket, e.method, e.path.replace(/:[a-z]+/g, '999999'), 'body' in e ? '"not a request"' : undefined);
      expect(r.status, `${n}: ${r.body}`).not.toBe(405);
      expect(r.body, n).not.toContain('no such endpoint');
      if ('body' in e) expect(r.status, `${n}: ${r.body}`).toBe(400);
    }
  });
});

describe("the dashboard's bundle", () => {
  it('carries the route table and no zod', () => {
    const assets = new URL('../../dist/ui/assets/', import.meta.url);
    const bundle = readdirSync(assets).find((f) => /^app-.*[.]js$/.test(f));
    const code = readFileSync(new URL(bundle ?? 'missing: run npm run build', assets), 'utf8');
    expect(code).toContain(ROUTES.followTaskEvents.path);
    expect(code).not.toMatch(/ZodError|safeParse/);
  });
});

describe('the light client (the hot commands)', () => {
  let server: Server | undefined;
  let dir: string | undefined;
  afterEach(() => {
    server?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('sends each call to its route of the table', async () => {
    dir = mkdtempSync(join(tmpdir(), 'ns-routes-'));
    const socket = join(dir, 's.sock');
    const seen: { method: string; url: string }[] = [];
    const task = { id: '1', status: 'exited', exitCode: 0 };
    server = createServer((req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '' });
      req.resume();
      res.setHeader('x-nightshift-output', JSON.stringify({ offset: 0, nextOffset: 0, size: 0 }));
      res.end(JSON.stringify({ task, timedOut: false, items: [], context: '' }));
    });
    await new Promise<void>((r) => server?.listen(socket, r));
    const c = new LightClient(socket);
    await c.run({ command: ['true'], cwd: '/' });
    await c.output('7', { offset: 5, limit: 10, text: true });
    await c.wait('7', 3);
    await c.recall({});
    await c.recallPrompt({ prompt: 'p', sessionId: 's' } as Parameters<LightClient['recallPrompt']>[0]);
    await c.ingest({ path: '/x' } as Parameters<LightClient['ingest']>[0]);
    await c.inject('injectSessionStart', {} as Parameters<LightClient['inject']>[1]);
    await c.inject('injectPrompt', {} as Parameters<LightClient['inject']>[1]);
    expect(seen.map((s) => routeOf(s.method, s.url))).toEqual([
      'runTask',
      'taskOutput',
      'waitTask',
      'recall',
      'recallPrompt',
      'ingest',
      'injectSessionStart',
      'injectPrompt',
    ]);
    expect(seen[1]?.url).toBe('/v1/tasks/7/output?offset=5&limit=10&text=1');
    expect(seen[2]?.url).toBe('/v1/tasks/7/wait?timeout=3');
  });
});
