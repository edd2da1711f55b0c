/**
 * `nightshift injections`: what the hooks gave each session (items, why each was chosen, tokens),
 * from the daemon's injection ledger; `nightshift memories reject ID`: "not useful", the memory is
 * never injected in that project again unless a later session reinforces it; `memories unreject ID`
 * undoes that.
 */
import type { Command } from 'commander';
import type { Injection, InjectionsResponse } from '../api/injections.js';
import { escapeControls } from '../api/recall-render.js';
import { withDaemon } from '../client/connect.js';
import { resolveDir } from '../project.js';
import { loadWidths, table } from './format.js';
import { printJson } from './print-json.js';
import { positiveInt } from './values.js';

const clip = (s: string, n: number) => {
  const flat = escapeControls(s.replace(/\s+/g, ' ').trim());
  return flat.length <= n ? flat : `${flat.slice(0, n - 1)}…`;
};

export function describeInjection(v: Injection): string {
  const head = `${v.id}  ${v.at.replace('T', ' ').slice(0, 19)}  ${v.event}  session ${v.sessionId ?? '-'}  ${v.project ?? '(no project)'}  ${v.tokens} tokens, ${v.items.length} item(s)`;
  if (v.items.length === 0) return `${head}\n`;
  const rows = v.items.map((i) => [i.kind, i.id, i.score.toFixed(2), String(i.tokens), clip(i.why.join(', '), 60), clip(i.text, 70)]);
  return `${head}\n${table(['KIND', 'ID', 'SCORE', 'TOKENS', 'WHY', 'TEXT'], rows)
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n')}\n`;
}

export function describeInjections(r: InjectionsResponse, session: string | undefined): string {
  if (r.injections.length === 0) return session ? `no injections recorded for session ${session}\n` : 'no injections recorded yet\n';
  return r.injections.map(describeInjection).join('\n');
}

export function registerInjectionCommands(program: Command): void {
  program
    .command('injections')
    .description('what the hooks injected into sessions, newest first: each item with its id, score, why it was chosen, and tokens')
    .option('--session <id>', 'only this session (an id or its prefix)')
    .option('--project <dir>', 'only sessions in this project')
    .option('--limit <n>', 'at most N injections (default 100)', positiveInt('--limit'))
    .option('--json', 'print JSON')
    .action(async (o: { session?: string; project?: string; limit?: number; json?: boolean }) => {
      const query = { session: o.session, project: o.project === undefined ? undefined : resolveDir(o.project), limit: o.limit };
      const r = await withDaemon((c) => c.call('injections', { query }));
      if (o.json) return printJson(r);
      await loadWidths();
      process.stdout.write(describeInjections(r, o.session));
    });
}

const where = (project: string | null) => (project ? ` in ${project}` : ' outside any project');

/** `memories reject ID` and `memories unreject ID`, hooked into the `memories` group. */
export function registerRejectCommands(memories: Command): void {
  memories
    .command('reject')
    .description(
      'not useful: never inject this memory in the project again unless a later session reinforces it (a negative for the ranker); shown by `memories show` and `history`, undone by `memories unreject`',
    )
    .argument('<id>')
    .option('--project <dir>', "the project it is kept out of: an existing directory in it (default: the memory's own project)")
    .option('--json', 'print JSON')
    .action(async (id: string, o: { project?: string; json?: boolean }) => {
      const body = o.project === undefined ? {} : { project: resolveDir(o.project) };
      const r = await withDaemon((c) => c.call('rejectMemory', { params: { id }, body }));
      if (o.json) return printJson(r);
      process.stdout.write(
        `rejected ${r.memoryId}${where(r.project)}: not injected there again unless reinforced (undo: nightshift memories unreject ${r.memoryId})\n`,
      );
    });
  memories
    .command('unreject')
    .description('undo `memories reject`: the memory may be injected again where it was rejected (every project, or only --project)')
    .argument('<id>')
    .option('--project <dir>', 'only its rejection in this project: an existing directory in it (default: every project it was rejected in)')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { project?: string; json?: boolean }) => {
      const body = o.project === undefined ? {} : { project: resolveDir(o.project) };
      const r = await withDaemon((c) => c.call('unrejectMemory', { params: { id }, body }));
      if (o.json) return printJson(r);
      for (const p of r.projects) process.stdout.write(`unrejected ${r.memoryId}${where(p)}: may be injected there again\n`);
    });
}
