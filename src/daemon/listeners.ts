/** Where the daemon answers: its unix socket, and loopback TCP when configured (swapped on reload). */
import { chmodSync, unlinkSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Config } from '../config.js';
import { isErrno } from '../errors.js';
import { listenTcp } from './tcp.js';

type TcpConfig = Config['tcp'];

/** How long requests on a listener that a reload replaced may go on before their connections are cut. */
const REPLACED_GRACE_MS = 10_000;

export class Listeners {
  private unix: Server | null = null;
  private tcp: { server: Server; address: string; config: NonNullable<TcpConfig> } | null = null;

  constructor(
    private readonly socket: string,
    private readonly tokenFile: string,
    /** A server answering the API; `token` for the TCP one. */
    private readonly make: (token?: string) => Server,
  ) {}

  get tcpAddress(): string | null {
    return this.tcp?.address ?? null;
  }

  async listenUnix(): Promise<void> {
    // We hold the lock, so a socket file left here is a dead daemon's.
    try {
      unlinkSync(this.socket);
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
    }
    const server = this.make();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.socket, () => {
        server.off('error', reject);
        resolve();
      });
    });
    chmodSync(this.socket, 0o600);
    this.unix = server;
  }

  /**
   * Listens on TCP as configured (none: not at all). The new listener is opened before the old one
   * is closed, so a port that cannot be had (in use) is an error and leaves things as they were.
   * Connections already open on the old one finish their requests; it accepts no new ones.
   */
  async setTcp(config: TcpConfig): Promise<void> {
    const old = this.tcp;
    if (sameTcp(old?.config, config)) return;
    this.tcp = config ? { ...(await listenTcp(config, this.tokenFile, (token) => this.make(token))), config } : null;
    if (!old) return;
    // Long-lived streams (events, follow) on it would hold it open for good: they get a grace period.
    const grace = setTimeout(() => old.server.closeAllConnections(), REPLACED_GRACE_MS);
    grace.unref();
    void close(old.server).then(() => clearTimeout(grace));
  }

  /** Stops accepting at once (synchronously); resolves when the open connections have ended. */
  close(): Promise<void> {
    const servers = [this.unix, this.tcp?.server].filter((s): s is Server => s !== null && s !== undefined);
    return Promise.all(servers.map((s) => close(s))).then(() => undefined);
  }

  /** Removes the socket file (after `close`). */
  removeSocket(): void {
    try {
      unlinkSync(this.socket);
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
    }
  }
}

/** Never rejects: a server that was not listening is closed all the same. */
function close(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  return closed;
}

function sameTcp(a: TcpConfig, b: TcpConfig): boolean {
  if (!a || !b) return a === b;
  return a.host === b.host && a.port === b.port;
}
