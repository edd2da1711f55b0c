/** `memories projects|edit|history|sources` and the filters of `memories list`: what the dashboard browses, on the command line. */
import type { Command } from 'commander';
import { MEMORY_TYPES, type MemoryType } from '../api/memory.js';
import type { HistoryEvent, MemorySource } from '../api/memory-browse.js';
import { escapeControls } from '../api/recall-render.js';
import { withDaemon } from '../client/connect.js';
import { AppError } from '../errors.js';
import { ago, loadWidths, table } from './format.js';
import { printJson } from './print-json.js';

export function count(name: string): (v: string) => number {
  return (v) => {
    if (!/^\d+$/.test(v)) throw new AppError('bad_request', `${name} must be a whole number; got "${v}"`);
    return Number(v);
  };
}

export function oneOf<T extends string>(name: string, values: readonly T[]): (v: string) => T {
  return (v) => {
    if (!(values as readonly string[]).includes(v)) throw new AppError('bad_request', `${name} must be one of ${values.join(', ')}; got "${v}"`);
    return v as T;
  };
}

export const memoryTypeOption = oneOf<MemoryType>('--type', MEMORY_TYPES);

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function describeEvent(e: HistoryEvent): string {
  const other =
    e.memoryId === undefined
      ? ''
      : ` ${e.memoryId}${e.text === null ? ' (no longer stored)' : e.text !== undefined ? ` "${escapeControls(e.text.slice(0, 70))}"` : ''}`;
  const detail: Record<HistoryEvent['kind'], string> = {
    created: `${e.origin ?? ''}${e.sessionId ? ` from session ${e.sessionId}` : ''}`,
    reinforced: `by session ${e.sessionId ?? '?'}`,
    edited: `"${escapeControls(e.from ?? '')}" → "${escapeControls(e.to ?? '')}"`,
    pinned: '',
    forgotten: '',
    archived: e.reason ?? '',
    restored: e.from ? `(was ${e.from})` : '',
    superseded: `by${other}`,
    supersedes: other.trim(),
    merged: `into${other}`,
    absorbed: other.trim(),
    masked: e.reason ?? '',
    rejected: `in ${e.project ?? '(no project)'}`,
    unrejected: `in ${e.project ?? '(no project)'}`,
  };
  const why = e.reason && !['archived', 'masked'].includes(e.kind) ? ` (${e.reason})` : '';
  return `${(e.at ?? '(time unknown)').padEnd(24)} ${e.kind.padEnd(10)} ${detail[e.kind]}${why}${e.dreamId ? ` [dream ${e.dreamId}]` : ''}`.trimEnd();
}

export function describeSources(sources: MemorySource[]): string {
  if (sources.length === 0) return 'no sources: written or imported by hand\n';
  const out: string[] = [];
  for (const s of sources) {
    out.push(
      `session ${s.sessionId}${s.session ? ` (${s.session.format ?? '?'}, ${s.session.project ?? 'no project'}) ${s.session.path}` : ' (no session record)'}`,
    );
    if (s.error) out.push(`  ! ${s.error.message}`);
    for (const m of s.messages) {
      const where = m.line !== undefined ? `line ${m.line}, byte ${m.offset ?? '?'}` : 'not in the transcript';
      out.push(`  message ${m.id} (${m.found ? where : 'not found'})${m.at ? ` ${m.at}` : ''}`);
      for (const n of m.before) out.push(`      ${n.role}: ${escapeControls(n.text.replace(/\s+/g, ' ').slice(0, 100))}`);
      if (m.text !== undefined) out.push(`    > ${m.role ?? ''}: ${escapeControls(m.text.replace(/\s+/g, ' ').slice(0, 300))}`);
      for (const n of m.after) out.push(`      ${n.role}: ${escapeControls(n.text.replace(/\s+/g, ' ').slice(0, 100))}`);
    }
  }
  return `${out.join('\n')}\n`;
}

export function registerMemoryBrowseCommands(memories: Command): void {
  memories
    .command('projects')
    .description('every project with memories or sessions: active and archived memories, sessions, last activity')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const r = await withDaemon((c) => c.call('projects', {}));
      if (o.json) return printJson(r);
      await loadWidths();
      const rows = [
        ['(user)', String(r.user.active), String(r.user.archived), '-', ago(r.user.lastActivity ?? undefined)],
        ...r.teams.map((t) => [`team ${t.team}`, String(t.active), String(t.archived), '-', ago(t.lastActivity ?? undefined)]),
        ...r.projects.map((p) => [p.project, String(p.active), String(p.archived), String(p.sessions), ago(p.lastActivity ?? undefined)]),
      ];
      process.stdout.write(`${table(['PROJECT', 'ACTIVE', 'ARCHIVED', 'SESSIONS', 'LAST'], rows)}\n`);
    });
  memories
    .command('edit')
    .description('change a memory’s text (secrets masked; the old text stays in its history; re-extraction and dreams leave it as you wrote it)')
    .argument('<id>')
    .argument('<text...>', 'the new text, or - to read it from stdin')
    .option('--json', 'print the memory as JSON')
    .action(async (id: string, text: string[], o: { json?: boolean }) => {
      const content = text.length === 1 && text[0] === '-' ? await readStdin() : text.join(' ');
      const m = await withDaemon((c) => c.call('editMemory', { params: { id }, body: { content } }));
      if (o.json) printJson(m.memory);
      else process.stdout.write(`edited ${m.memory.id}: ${escapeControls(m.memory.content.slice(0, 80))}\n`);
    });
  memories
    .command('history')
    .description(
      'what happened to a memory, oldest first: created, reinforced, edited, pinned, archived, restored, superseded, merged (and by which dream), rejected and unrejected',
    )
    .argument('<id>')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const r = await withDaemon((c) => c.call('memoryHistory', { params: { id } }));
      if (o.json) return printJson(r);
      process.stdout.write(`${r.memory.id}: ${escapeControls(r.memory.content.slice(0, 100))}\n${r.events.map(describeEvent).join('\n')}\n`);
    });
  memories
    .command('sources')
    .description('where a memory came from: its sessions, and each message it came from with its line in the transcript and the messages around it')
    .argument('<id>')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const r = await withDaemon((c) => c.call('memorySources', { params: { id } }));
      if (o.json) printJson(r);
      else process.stdout.write(describeSources(r.sources));
    });
}
