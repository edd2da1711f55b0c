/**
 * Team directories are shared through git: when files change under them (a pull, a checkout, a
 * hand edit), the team's memories are read again. Our own writes are recognised and ignored.
 */
import type { FSWatcher } from 'chokidar';
import type { Logger } from '../../log.js';
import type { MemoryStore } from './store.js';
import { TeamDir } from './team-dir.js';

const SETTLE_MS = 300;

export async function attachTeams(store: MemoryStore, teams: Record<string, string>, log: Logger, watch: boolean): Promise<() => Promise<void>> {
  const dirs = Object.entries(teams).map(([team, dir]) => new TeamDir(team, dir));
  for (const d of dirs) {
    const r = store.attachTeam(d);
    for (const p of r.problems) log.warn({ team: d.team, file: p.file, problem: p.error }, 'skipped a team memory file');
    log.info({ team: d.team, dir: d.dir, memories: r.loaded }, 'team memory loaded');
  }
  if (!watch || dirs.length === 0) return async () => undefined;
  const { watch: chokidarWatch } = await import('chokidar');
  const watchers: FSWatcher[] = [];
  for (const d of dirs) {
    let timer: NodeJS.Timeout | undefined;
    const changed = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        if (d.unchangedOnDisk()) return;
        const r = store.attachTeam(d);
        log.info({ team: d.team, memories: r.loaded }, 'team memory changed on disk; read again');
      }, SETTLE_MS);
    };
    const w = chokidarWatch(d.dir, { ignoreInitial: true, depth: 0, ignored: (p, st) => st?.isFile() === true && !p.endsWith('.md') });
    w.on('add', changed).on('change', changed).on('unlink', changed);
    w.on('error', (err) => log.warn({ team: d.team, err: (err as Error).message }, 'team directory watcher error'));
    watchers.push(w);
  }
  return async () => {
    await Promise.all(watchers.map((w) => w.close()));
  };
}
