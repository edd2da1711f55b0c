/**
 * The web dashboard's listener: 127.0.0.1 only, off until asked for. It serves the bundled front end
 * and mounts the daemon's own API dispatcher under /v1 (the same endpoint table the CLI uses), behind
 * the Host/Origin checks and the session cookie. All of it lives under a private path prefix (kept in
 * ui.json): the session cookie's Path, so that no other server on 127.0.0.1 ever receives it.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { UiOnResponse } from '../api/ui.js';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import { Assets } from './assets.js';
import { clearCookie, cookieName, Logins, sessionCookie, setCookie } from './auth.js';
import { refusal, securityHeaders, sendText } from './guard.js';
import { newPrefix, pathInApp } from './prefix.js';
import { readUiState, writeUiState } from './ui-state.js';

export interface DashboardOptions {
  /** The configured port, read when the listener opens (0: any free one). */
  port: () => number;
  enabledByConfig: boolean;
  stateFile: string;
  assetsDir: string;
  /** The API dispatcher, as the unix socket serves it. */
  api: (req: IncomingMessage, res: ServerResponse) => void;
  log: Logger;
}

export class Dashboard {
  private server: Server | null = null;
  private port = 0;
  private readonly logins = new Logins();
  private assets: Assets | null = null;
  /** An open under way: `nightshift ui` during daemon start-up waits for it instead of opening a second listener. */
  private opening: Promise<void> | null = null;
  /** The private path prefix (`/<24 random characters>`), set when it listens. */
  private prefix = '';

  constructor(private readonly o: DashboardOptions) {}

  /** Where it listens, without the prefix: what the daemon logs (the prefix stays out of logs). */
  get url(): string | null {
    return this.server ? `http://127.0.0.1:${this.port}` : null;
  }

  /** The app's address: only `nightshift ui` tells it. */
  private get appUrl(): string {
    return `http://127.0.0.1:${this.port}${this.prefix}`;
  }

  private get cookie(): string {
    return cookieName(this.port);
  }

  /** At daemon start: on when `nightshift ui` left it on (or the config says so and nothing was recorded). A port in use is logged, not fatal. */
  async startUp(): Promise<void> {
    if (!(readUiState(this.o.stateFile).enabled ?? this.o.enabledByConfig)) return;
    try {
      await this.listen();
    } catch (err) {
      this.o.log.error({ err: (err as Error).message }, 'the dashboard could not start; `nightshift ui` tries again');
    }
  }

  /** Turns it on (and records that), with a fresh one-time login link. */
  async enable(): Promise<UiOnResponse> {
    const wasOn = this.server !== null || this.opening !== null;
    await this.listen();
    try {
      await writeUiState(this.o.stateFile, { enabled: true, prefix: this.prefix });
    } catch (err) {
      // Not recorded (a full disk): refused, so it does not stay on either.
      if (!wasOn) await this.close();
      throw err;
    }
    const url = this.appUrl;
    const { token, expires } = this.logins.mintToken();
    return { enabled: true, url, loginUrl: `${url}/login?token=${token}`, expires: expires.toISOString() };
  }

  /** Turns it off (and records that); every session ends. */
  async disable(): Promise<void> {
    // The prefix stays: links and bookmarks into the app work again after the next `nightshift ui`.
    await writeUiState(this.o.stateFile, { enabled: false, prefix: readUiState(this.o.stateFile).prefix });
    this.logins.clear();
    await this.close();
  }

  /** Stops listening and cuts open connections (live output streams resume by offset on the next login). */
  async close(): Promise<void> {
    const s = this.server;
    this.server = null;
    if (!s) return;
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    s.closeAllConnections();
    await closed;
  }

  private listen(): Promise<void> {
    this.opening ??= this.open().finally(() => (this.opening = null));
    return this.opening;
  }

  private async open(): Promise<void> {
    if (this.server) return;
    const state = readUiState(this.o.stateFile);
    if (state.prefix === null) {
      // Recorded before it listens: the app's address is the same after every restart.
      state.prefix = newPrefix();
      await writeUiState(this.o.stateFile, state);
    }
    this.prefix = state.prefix;
    this.assets = Assets.load(this.o.assetsDir, this.prefix);
    const server = createServer({ requestTimeout: 0, headersTimeout: 10_000 }, (req, res) => this.handle(req, res));
    const port = this.o.port();
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        const why = err.code === 'EADDRINUSE' ? 'the port is in use (config "ui.port")' : err.message;
        reject(new AppError('config_invalid', `the dashboard cannot listen on 127.0.0.1:${port}: ${why}`, err));
      });
      server.listen(port, '127.0.0.1', () => resolve());
    });
    const addr = server.address();
    this.port = typeof addr === 'object' && addr ? addr.port : port;
    this.server = server;
    this.o.log.info({ url: this.url }, 'dashboard listening');
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    securityHeaders(res);
    const refused = refusal(req, this.port);
    if (refused) {
      res.setHeader('connection', 'close');
      return sendText(res, refused.status, refused.text);
    }
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const path = pathInApp(this.prefix, q < 0 ? raw : raw.slice(0, q));
    if (path === null) return sendText(res, 404, OUTSIDE);
    // From here on every path is the app's own (the API dispatcher reads req.url too).
    req.url = q < 0 ? path : `${path}${raw.slice(q)}`;
    const session = sessionCookie(req.headers.cookie, this.cookie);
    if (path.startsWith('/v1/')) {
      if (!this.logins.check(session)) return sendUnauthorized(res);
      res.setHeader('cache-control', 'no-store');
      return this.o.api(req, res);
    }
    if (path === '/login' && req.method === 'GET') return this.login(req, res);
    if (path === '/logout' && req.method === 'POST') {
      this.logins.end(session);
      res.writeHead(204, { 'set-cookie': clearCookie(this.cookie, this.prefix) });
      return void res.end();
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'method not allowed\n');
    if (this.assets?.file(path, res)) return;
    if (path.startsWith('/assets/')) return sendText(res, 404, 'no such file\n');
    if (!this.logins.check(session)) return sendText(res, 401, 'Not logged in: run `nightshift ui` and open the link it prints (it works once).\n');
    this.assets?.page(res);
  }

  /** Spends the one-time token for a session cookie; 303 to the app's / so the token leaves the address bar and the history. */
  private login(req: IncomingMessage, res: ServerResponse): void {
    const token = new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('token') ?? '';
    const session = this.logins.redeem(token);
    if (!session) return sendText(res, 403, 'This login link was used already or has expired: run `nightshift ui` for a new one.\n');
    res.writeHead(303, { location: `${this.prefix}/`, 'set-cookie': setCookie(this.cookie, session, this.prefix), 'cache-control': 'no-store' });
    res.end();
  }
}

/** Any path outside the prefix: the old unprefixed addresses among them. Never the app, never a cookie. */
const OUTSIDE = 'Not found. The dashboard is served at a private address: run `nightshift ui` and open the link it prints.\n';

function sendUnauthorized(res: ServerResponse): void {
  const body = JSON.stringify({ error: new AppError('unauthorized', 'not logged in to the dashboard: run `nightshift ui` and open its link').toJSON() });
  res.writeHead(401, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(body);
}
