/**
 * Watches transcript directories (Claude Code's and Codex's by default) and ingests a session once
 * its file has been idle for a while: agents append to a transcript for as long as a session runs,
 * so silence is the only end signal they all share.
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { FSWatcher } from 'chokidar';
import type { IngestRequest, IngestSummary } from '../../api/memory.js';
import type { Logger } from '../../log.js';

export interface WatcherOptions {
  dirs: string[];
  idleSeconds: number;
  /** Bytes already ingested of a transcript (0 when unknown). */
  ingestedBytes: (path: string) => number | undefined;
  ingest: (req: IngestRequest) => Promise<IngestSummary>;
  log: Logger;
}

/**
 * Claude Code's and Codex's transcript directories; none under NIGHTSHIFT_HOME, which keeps an
 * instance to itself (tests, a second instance side by side): there only `transcripts.dirs` counts.
 */
export function defaultTranscriptDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  if (env.NIGHTSHIFT_HOME) return [];
  const home = env.HOME ?? homedir();
  return [join(home, '.claude', 'projects'), join(env.CODEX_HOME ?? join(home, '.codex'), 'sessions')];
}

export async function startTranscriptWatcher(opts: WatcherOptions): Promise<() => Promise<void>> {
  const dirs = opts.dirs.filter((d) => existsSync(d));
  if (dirs.length === 0) {
    opts.log.info(
      { dirs: opts.dirs },
      opts.dirs.length === 0
        ? 'no transcript directory to watch (NIGHTSHIFT_HOME is set and transcripts.dirs names none); the watcher is idle'
        : 'no transcript directory exists; the watcher is idle',
    );
    return async () => undefined;
  }
  const { watch } = await import('chokidar');
  /** Transcripts that appeared or grew and may need an ingest once idle. */
  const seen = new Set<string>();
  const inFlight = new Set<string>();
  /**
   * Size at which a transcript's ingest failed, or left bytes it cannot use yet (a last line not
   * finished): not tried again until the file changes.
   */
  const skipAt = new Map<string, number>();
  const watcher: FSWatcher = watch(dirs, {
    ignoreInitial: false,
    depth: 8,
    ignored: (path, stats) => stats?.isFile() === true && !path.endsWith('.jsonl'),
  });
  const note = (path: string) => seen.add(path);
  watcher
    .on('add', note)
    .on('change', note)
    .on('unlink', (p) => seen.delete(p));
  watcher.on('error', (err) => opts.log.warn({ err: (err as Error).message }, 'transcript watcher error'));

  const idleMs = opts.idleSeconds * 1000;
  const check = async () => {
    for (const path of [...seen]) {
      if (inFlight.has(path)) continue;
      let st;
      try {
        st = await stat(path);
      } catch {
        seen.delete(path);
        continue;
      }
      // The file's mtime is its last append (wall clock, as the filesystem keeps it).
      if (Date.now() - st.mtimeMs < idleMs) continue;
      if ((opts.ingestedBytes(path) ?? 0) >= st.size || skipAt.get(path) === st.size) {
        seen.delete(path);
        continue;
      }
      inFlight.add(path);
      opts
        .ingest({ path, wait: true, reason: 'idle' })
        .then(
          () => {
            if ((opts.ingestedBytes(path) ?? 0) < st.size) skipAt.set(path, st.size);
            else skipAt.delete(path);
          },
          (err: unknown) => {
            skipAt.set(path, st.size);
            opts.log.warn({ path, err: (err as Error).message }, 'ingest of an idle transcript failed; tried again once it changes');
          },
        )
        // Left in `seen`: a change that arrived during the ingest must not be lost; the next check
        // drops the file once everything in it was ingested.
        .finally(() => inFlight.delete(path));
    }
  };
  const period = Math.max(50, Math.min(60_000, idleMs / 4));
  const timer = setInterval(() => void check(), period);
  timer.unref();
  opts.log.info({ dirs, idleSeconds: opts.idleSeconds }, 'watching transcript directories');
  return async () => {
    clearInterval(timer);
    await watcher.close();
  };
}
