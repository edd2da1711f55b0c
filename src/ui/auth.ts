/**
 * The dashboard's logins: one-time tokens (`nightshift ui` prints one in a link) exchanged for a
 * session cookie. Both live in memory only: a daemon restart logs everyone out (`nightshift ui` again).
 * Secrets are kept as SHA-256 digests and compared in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { nowMs } from '../clock.js';

/** A login link works once, for this long. */
export const TOKEN_TTL_MS = 2 * 60_000;
/** A session unused for this long is over. */
export const SESSION_IDLE_MS = 12 * 3600_000;
/** Live tokens kept at most; minting more drops the oldest. */
const MAX_TOKENS = 32;

export const COOKIE = 'ns_session';

const digest = (s: string) => createHash('sha256').update(s).digest();

interface Secret {
  hash: Buffer;
  /** Tokens: when it stops working; sessions: when it was last used. */
  at: number;
}

/** The entry whose digest equals the given secret's, comparing every one in constant time. */
function find(list: Secret[], given: string): number {
  const h = digest(given);
  let hit = -1;
  list.forEach((s, i) => {
    if (timingSafeEqual(s.hash, h)) hit = i;
  });
  return hit;
}

export class Logins {
  private tokens: Secret[] = [];
  private sessions: Secret[] = [];

  /** A fresh one-time login token and when it expires. */
  mintToken(): { token: string; expires: Date } {
    this.prune();
    const token = randomBytes(32).toString('base64url');
    const expires = nowMs() + TOKEN_TTL_MS;
    this.tokens.push({ hash: digest(token), at: expires });
    if (this.tokens.length > MAX_TOKENS) this.tokens.shift();
    return { token, expires: new Date(expires) };
  }

  /** Spends a token: a new session id when it was live (it never works again), else null. */
  redeem(token: string): string | null {
    this.prune();
    const i = find(this.tokens, token);
    if (i < 0) return null;
    this.tokens.splice(i, 1);
    const session = randomBytes(32).toString('base64url');
    this.sessions.push({ hash: digest(session), at: nowMs() });
    return session;
  }

  /** Whether the session is live; using it keeps it so. */
  check(session: string | undefined): boolean {
    if (!session) return false;
    this.prune();
    const i = find(this.sessions, session);
    const s = this.sessions[i];
    if (!s) return false;
    s.at = nowMs();
    return true;
  }

  end(session: string | undefined): void {
    if (!session) return;
    const i = find(this.sessions, session);
    if (i >= 0) this.sessions.splice(i, 1);
  }

  clear(): void {
    this.tokens = [];
    this.sessions = [];
  }

  private prune(): void {
    const t = nowMs();
    this.tokens = this.tokens.filter((s) => s.at > t);
    this.sessions = this.sessions.filter((s) => t - s.at < SESSION_IDLE_MS);
  }
}

/**
 * The session cookie's name: one per port, so that two dashboards (two NIGHTSHIFT_HOMEs) in one
 * browser never overwrite each other's session.
 */
export function cookieName(port: number): string {
  return `${COOKIE}_${port}`;
}

/** The session id in a Cookie header, if any. */
export function sessionCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/**
 * HttpOnly (no script reads it), SameSite=Strict (no other site's request carries it), Path the
 * dashboard's private prefix (no other server on 127.0.0.1 receives it: browsers send a cookie to
 * every port of a host, but only to paths under its Path). No Secure: the dashboard is plain http
 * on loopback.
 */
export function setCookie(name: string, session: string, path: string): string {
  return `${name}=${session}; HttpOnly; SameSite=Strict; Path=${path}`;
}

export function clearCookie(name: string, path: string): string {
  return `${name}=; HttpOnly; SameSite=Strict; Path=${path}; Max-Age=0`;
}
