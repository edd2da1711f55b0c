import { afterEach, describe, expect, it } from 'vitest';
import { setClockOffset } from '../../src/clock.js';
import { cookieName, Logins, SESSION_IDLE_MS, TOKEN_TTL_MS, sessionCookie } from '../../src/ui/auth.js';

afterEach(() => setClockOffset(0));

describe('dashboard logins', () => {
  it('a token works once and only until it expires', () => {
    const l = new Logins();
    const { token, expires } = l.mintToken();
    expect(expires.getTime() - Date.now()).toBeLessThanOrEqual(TOKEN_TTL_MS);
    const late = l.mintToken();
    setClockOffset(TOKEN_TTL_MS - 1000);
    const session = l.redeem(token) ?? '';
    expect(session).toMatch(/^[\w-]{40,}$/);
    expect(l.redeem(token)).toBeNull();
    expect(l.check(session)).toBe(true);
    expect(l.check(`${session}x`)).toBe(false);
    setClockOffset(TOKEN_TTL_MS + 1000);
    expect(l.redeem(late.token)).toBeNull();
  });

  it('a session ends when idle too long, or on logout', () => {
    const l = new Logins();
    const a = l.redeem(l.mintToken().token) ?? '';
    const b = l.redeem(l.mintToken().token) ?? '';
    setClockOffset(SESSION_IDLE_MS / 2);
    expect(l.check(a)).toBe(true);
    setClockOffset(SESSION_IDLE_MS + 1000);
    expect(l.check(a)).toBe(true); // used half way: still fresh
    expect(l.check(b)).toBe(false);
    l.end(a);
    expect(l.check(a)).toBe(false);
  });

  it("reads the session from a Cookie header among others, by its dashboard's own name (with the port)", () => {
    const name = cookieName(4242);
    expect(name).toBe('ns_session_4242');
    expect(sessionCookie('a=1; ns_session_4242=abc=; b=2', name)).toBe('abc=');
    expect(sessionCookie('ns_session_4243=abc; ns_session=def', name)).toBeUndefined();
    expect(sessionCookie('ns_session_42420=1', name)).toBeUndefined();
    expect(sessionCookie(undefined, name)).toBeUndefined();
  });
});
