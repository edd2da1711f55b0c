import { mkdtempSync, rmSync } from 'node:fs';

type Undo = () => unknown;
const pending: Undo[] = [];

/** Registers an undo step for an interrupted run; the returned function unregisters it (without running it). */
export function defer(undo: Undo): () => void {
  pending.push(undo);
  return () => {
    const i = pending.lastIndexOf(undo);
    if (i >= 0) pending.splice(i, 1);
  };
}

/** Runs every step still registered, newest first (used on SIGINT and when a bench overruns). */
export async function undoAll(): Promise<void> {
  while (pending.length > 0) {
    const undo = pending.pop() as Undo;
    try {
      await undo();
    } catch (err) {
      process.stderr.write(`cleanup step failed: ${(err as Error).message}\n`);
    }
  }
}

/** A temporary directory under /tmp, removed by the returned function (or by undoAll). */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(`/tmp/${prefix}`);
  const remove = () => rmSync(dir, { recursive: true, force: true });
  const drop = defer(remove);
  return {
    dir,
    remove: () => {
      drop();
      remove();
    },
  };
}

/** Kills a process we started, by pid, if it is still there. */
export function killPid(pid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}
