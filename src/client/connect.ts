import { readFileSync } from 'node:fs';
import { AppError } from '../errors.js';
import { resolvePaths } from '../paths.js';
import { retry } from '../sys/retry.js';
import { ApiClient } from './api-client.js';
import { spawnDaemon } from './spawn-daemon.js';

const STARTUP_WAIT_MS = 15_000;

export function client(): ApiClient {
  return new ApiClient({ socket: resolvePaths().socket });
}

/**
 * Runs `fn` against the daemon, starting the daemon in the background first when nothing answers
 * on the socket (unless NIGHTSHIFT_NO_AUTOSTART=1). Only a refused connection is retried, so a
 * request the daemon may have seen is never sent twice.
 */
export async function withDaemon<T>(fn: (c: ApiClient) => Promise<T>): Promise<T> {
  const c = client();
  try {
    return await fn(c);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== 'daemon_unavailable' || process.env.NIGHTSHIFT_NO_AUTOSTART === '1') throw err;
  }
  await startDaemon(c);
  return fn(c);
}

async function startDaemon(c: ApiClient): Promise<void> {
  const paths = resolvePaths();
  const child = spawnDaemon();
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code ?? 1;
  });
  process.stderr.write(`nightshift: started the daemon in the background (pid ${child.pid}; log ${paths.daemonLog})\n`);
  const unavailable = (err: unknown) => err instanceof AppError && err.code === 'daemon_unavailable';
  // Exit 1 is "another daemon holds the lock": one is starting, so keep waiting for it.
  const failed = () => exited !== null && exited !== 1;
  try {
    await retry(() => c.status(), { retryIf: (err) => unavailable(err) && !failed(), delayMs: 25, forMs: STARTUP_WAIT_MS });
  } catch (err) {
    if (!unavailable(err)) throw err;
    if (failed()) throw new AppError('daemon_unavailable', `the daemon failed to start (exit ${exited}): ${lastLine(paths.daemonLog)}`);
    throw new AppError('daemon_unavailable', `the daemon did not answer within ${STARTUP_WAIT_MS / 1000}s; see ${paths.daemonLog}`);
  }
}

function lastLine(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-3).join(' | ');
  } catch {
    return 'no log';
  }
}
