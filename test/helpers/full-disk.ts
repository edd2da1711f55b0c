/**
 * A daemon whose state directory is a small tmpfs (root only; the test is skipped with the reason
 * otherwise), and a filler that takes what room is left, so the daemon's writes really fail with
 * ENOSPC while the rest of it runs for real.
 */
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'vitest';
import { TestDaemon } from './daemon.js';
import { mountTmpfs, unmount } from './tmpfs.js';

export const EXIT_DISK_FULL = 74;

/** The daemons to stop, unmount and remove after each test: `afterEach(() => cleanupFullDisk(daemons))`. */
export async function cleanupFullDisk(daemons: TestDaemon[]): Promise<void> {
  for (const d of daemons.splice(0)) {
    await d.stop().catch(() => undefined);
    // Tasks first (cleanup kills them by pid), then the mount, then the home.
    const cleanup = d.cleanup();
    await new Promise((r) => setTimeout(r, 20));
    unmount(d.paths.stateDir);
    await cleanup.catch(() => undefined);
    unmount(d.paths.stateDir);
    rmSync(d.home, { recursive: true, force: true });
  }
}

export async function fullDiskDaemon(
  ctx: TestContext,
  daemons: TestDaemon[],
  config: Record<string, unknown> = {},
  extraEnv: Record<string, string> = {},
): Promise<TestDaemon> {
  const d = new TestDaemon({ dream: { schedule: false }, ...config }, extraEnv);
  const why = mountTmpfs(d.paths.stateDir, '2m');
  if (why) {
    rmSync(d.home, { recursive: true, force: true });
    ctx.skip(why);
  }
  daemons.push(d);
  await d.start();
  return d;
}

/** How long, and how often, the filler waits to take room a failed write gives back. */
const SETTLE_MS = 100;
const SETTLE_ROUNDS = 3;

function takeRoom(filler: string): void {
  try {
    appendFileSync(filler, Buffer.alloc(8 * 1024 * 1024));
  } catch {
    // ENOSPC once the disk is full: what was written stays
  }
}

/**
 * Fills what is left of the state directory's filesystem; returns the filler, to delete for room
 * again. A write the full disk cut short is cleaned up a moment later (an atomic write removes its
 * temporary file), which gives room back: the filler waits and takes it too, so a small write made
 * next fails as it would on a disk that stays full.
 */
export function fill(d: TestDaemon): string {
  const filler = join(d.paths.stateDir, 'filler');
  takeRoom(filler);
  const tick = new Int32Array(new SharedArrayBuffer(4));
  for (let i = 0; i < SETTLE_ROUNDS; i++) {
    Atomics.wait(tick, 0, 0, SETTLE_MS);
    takeRoom(filler);
  }
  return filler;
}
