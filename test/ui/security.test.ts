import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonsPerTest, until } from '../helpers/daemon.js';
import { dashboardRequest, login, openDashboard } from '../helpers/dashboard.js';

const daemon = daemonsPerTest(afterEach);
const UI = { ui: { port: 0 } };

describe('dashboard security', () => {
  it('exchanges a one-time token for an HttpOnly, SameSite=Strict session cookie scoped to the private prefix, and redirects the token away', async () => {
    const d = daemon(UI);
    await d.start();
    const { port, prefix, loginUrl } = await openDashboard(d);
    expect(prefix).toMatch(/^\/[\w-]{24}$/);
    const u = new URL(loginUrl);
    expect(u.pathname).toBe(`${prefix}/login`);
    // The link without its prefix (as an older dashboard printed it) is not the app: nothing is spent.
    const outside = await dashboardRequest(port, { path: `/login${u.search}` });
    expect(outside.status).toBe(404);
    expect(outside.body).toContain('nightshift ui');
    expect(outside.headers['set-cookie']).toBeUndefined();
    const first = await dashboardRequest(port, { path: `${u.pathname}${u.search}` });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe(`${prefix}/`);
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toMatch(new RegExp(`^ns_session_${port}=[\\w-]{20,}; `));
    expect(cookie.split('; ').slice(1).sort()).toEqual(['HttpOnly', `Path=${prefix}`, 'SameSite=Strict']);
    // Single use: the same link never logs in again.
    const again = await dashboardRequest(port, { path: `${u.pathname}${u.search}` });
    expect(again.status).toBe(403);
    expect(String(again.headers['set-cookie'] ?? '')).toBe('');
    const wrong = await dashboardRequest(port, { path: `${prefix}/login?token=nope` });
    expect(wrong.status).toBe(403);
  });

  it('answers nothing of the app outside its private prefix, with or without a session; the prefix is kept across restarts', async () => {
    const d = daemon(UI);
    await d.start();
    const { port, prefix, loginUrl } = await openDashboard(d);
    const cookie = await login(port, loginUrl);
    const page = await dashboardRequest(port, { path: `${prefix}/tasks`, headers: { cookie } });
    expect(page.status).toBe(200);
    const script = /src="([^"]+\.js)"/.exec(page.body)?.[1] ?? '';
    expect(script).toMatch(new RegExp(`^${prefix}/assets/app-\\w+\\.js$`));
    const asset = script.slice(prefix.length);
    const otherPrefix = `/${'A'.repeat(24)}`;
    for (const path of [
      '/',
      '/tasks',
      '/tasks/3',
      '/v1/tasks',
      asset,
      '/logout',
      `${otherPrefix}/v1/tasks`,
      `${prefix}x/v1/tasks`,
      `${prefix.slice(0, -1)}/v1/tasks`,
    ]) {
      const res = await dashboardRequest(port, { path, headers: { cookie } });
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type'], path).toMatch(/^text\/plain/);
      expect(res.body, path).toContain('run `nightshift ui` and open the link it prints');
      expect(res.body, path).not.toContain(prefix);
    }
    expect((await dashboardRequest(port, { method: 'POST', path: '/v1/tasks/1/kill', headers: { cookie, origin: `http://127.0.0.1:${port}` } })).status).toBe(
      404,
    );
    // Kept in ui.json (0600, in the private state directory): the app's address survives a restart.
    const state = JSON.parse(readFileSync(d.paths.uiStateFile, 'utf8')) as { enabled: boolean; prefix: string };
    expect(state).toEqual({ enabled: true, prefix });
    expect(statSync(d.paths.uiStateFile).mode & 0o777).toBe(0o600);
    await d.restart();
    expect(new URL((await d.client.enableUi()).url).pathname).toBe(prefix);
    // ... and is not written to the daemon's log.
    expect(d.log).not.toContain(prefix);
  });

  it('answers the API only with the session cookie, with the security headers on every answer', async () => {
    const d = daemon(UI);
    await d.start();
    const { port, prefix, loginUrl } = await openDashboard(d);
    const none = await dashboardRequest(port, { path: `${prefix}/v1/tasks` });
    expect(none.status).toBe(401);
    expect(JSON.parse(none.body).error.code).toBe('unauthorized');
    expect((await dashboardRequest(port, { path: `${prefix}/` })).status).toBe(401);
    expect((await dashboardRequest(port, { path: `${prefix}/v1/tasks`, headers: { cookie: `ns_session_${port}=forged` } })).status).toBe(401);
    const cookie = await login(port, loginUrl);
    // Another dashboard's cookie name (another port) is not this one's session.
    expect((await dashboardRequest(port, { path: `${prefix}/v1/tasks`, headers: { cookie: cookie.replace(`_${port}=`, `_${port + 1}=`) } })).status).toBe(401);
    const ok = await dashboardRequest(port, { path: `${prefix}/v1/tasks`, headers: { cookie } });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ tasks: [], total: 0 });
    expect(ok.headers['cache-control']).toBe('no-store');
    for (const res of [none, ok]) {
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
    const page = await dashboardRequest(port, { path: `${prefix}/tasks/3`, headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    const script = /src="(\/[\w-]+\/assets\/app-[\w]+\.js)"/.exec(page.body)?.[1] ?? '';
    expect(script.startsWith(`${prefix}/assets/`)).toBe(true);
    expect(page.body).not.toMatch(/<script>|<style>| style=/);
    const asset = await dashboardRequest(port, { path: script });
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('reads the ui.json of an earlier version (no prefix): on as it was left, with a prefix made and kept', async () => {
    const d = daemon(UI);
    mkdirSync(d.paths.stateDir, { recursive: true });
    writeFileSync(d.paths.uiStateFile, '{"enabled":true}\n');
    await d.start();
    // The daemon answers on its socket before the dashboard has opened: wait for the prefix it records.
    const prefix = await until(() => (JSON.parse(readFileSync(d.paths.uiStateFile, 'utf8')) as { prefix?: string }).prefix);
    expect(prefix).toMatch(/^\/[\w-]{24}$/);
    expect(JSON.parse(readFileSync(d.paths.uiStateFile, 'utf8'))).toEqual({ enabled: true, prefix });
    const { port, url, loginUrl } = await openDashboard(d);
    expect(new URL(url).pathname).toBe(prefix);
    const cookie = await login(port, loginUrl);
    expect((await dashboardRequest(port, { path: `${prefix}/v1/tasks`, headers: { cookie } })).status).toBe(200);
  });

  it('refuses a foreign Host (DNS rebinding), even with a valid session', async () => {
    const d = daemon(UI);
    await d.start();
    const { port, prefix, loginUrl } = await openDashboard(d);
    const cookie = await login(port, loginUrl);
    for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, '127.0.0.1']) {
      const res = await dashboardRequest(port, { path: `${prefix}/v1/tasks`, headers: { host, cookie } });
      expect(res.status, host).toBe(421);
      expect(res.body).toContain('Host');
    }
    expect((await dashboardRequest(port, { path: `${prefix}/v1/tasks`, headers: { host: `localhost:${port}`, cookie } })).status).toBe(200);
  });

  it('refuses a state-changing request from another origin, or without Origin unless same-origin', async () => {
    const d = daemon(UI);
    await d.start();
    const { port, prefix, loginUrl } = await openDashboard(d);
    const cookie = await login(port, loginUrl);
    const task = await d.client.run({ command: ['sleep', '30'], cwd: '/tmp', stdin: false });
    const kill = (headers: Record<string, string>) =>
      dashboardRequest(port, {
        method: 'POST',
        path: `${prefix}/v1/tasks/${task.id}/kill`,
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    expect((await kill({ origin: 'http://evil.example' })).status).toBe(403);
    expect((await kill({ origin: `http://localhost:${port + 1}` })).status).toBe(403);
    expect((await kill({})).status).toBe(403);
    expect((await kill({ 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await d.client.get(task.id)).status).toBe('running');
    const ok = await kill({ origin: `http://127.0.0.1:${port}` });
    expect(ok.status).toBe(200);
    await until(async () => (await d.client.get(task.id)).status === 'killed');
  });

  it('turns off with `nightshift ui --off` and stays as left across a restart; a restart ends sessions', async () => {
    const d = daemon(UI);
    await d.start();
    const on = await d.cli(['ui', '--json', '--no-open']);
    expect(on.code).toBe(0);
    const { url, loginUrl } = JSON.parse(on.stdout) as { url: string; loginUrl: string };
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[\w-]{24}$/);
    const port = Number(new URL(url).port);
    const cookie = await login(port, loginUrl);
    await d.restart();
    // Back on by itself (ui.json), the old session gone.
    const status = await d.client.enableUi();
    const port2 = Number(new URL(status.url).port);
    expect((await dashboardRequest(port2, { path: `${new URL(status.url).pathname}/v1/tasks`, headers: { cookie } })).status).toBe(401);
    const off = await d.cli(['ui', '--off']);
    expect(off.stdout).toBe('dashboard off\n');
    await expect(dashboardRequest(port2, { path: '/' })).rejects.toThrow(/ECONNREFUSED/);
    await d.restart();
    await expect(dashboardRequest(port2, { path: '/' })).rejects.toThrow(/ECONNREFUSED/);
  });
});
