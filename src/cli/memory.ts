import { createReadStream, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { ImportLine, MEMORY_TYPES, type Memory, type MemoryType } from '../api/memory.js';
import { resolveDir } from '../project.js';
import { AppError } from '../errors.js';
import { withDaemon } from '../client/connect.js';
import { escapeControls } from '../api/recall-render.js';
import { ago, clipColumns, loadWidths, table } from './format.js';
import { count, describeSources, memoryTypeOption, oneOf, registerMemoryBrowseCommands } from './memory-browse.js';
import { printJson } from './print-json.js';
import { evidenceRows, reverifyMark } from './memory-evidence.js';
import { registerRejectCommands } from './injections.js';

const IMPORT_BATCH_BYTES = 256 * 1024;

interface ListOptions {
  project?: string;
  team?: string;
  archived?: boolean;
  query?: string;
  type?: MemoryType;
  scope?: 'user' | 'project' | 'team';
  origin?: 'heuristic' | 'model' | 'manual' | 'import';
  pinned?: boolean;
  session?: string;
  recent?: boolean;
  offset?: number;
  limit?: number;
  json?: boolean;
}

function describeMemory(m: Memory): string {
  const rows: [string, string][] = [
    ['id', m.id],
    ['content', escapeControls(m.content)],
    ['type', m.type],
    ['scope', m.scope + (m.project ? ` ${m.project}` : '') + (m.team ? ` ${m.team}` : '')],
    ['stable', m.pinned ? 'yes (pinned)' : m.stable ? 'yes' : 'no (decays)'],
    ['importance', m.importance.toFixed(2)],
    ['created', m.createdAt],
    ['last seen', m.lastSeenAt],
    ['reinforced', String(m.reinforcements)],
    ['origin', m.origin],
  ];
  for (const s of m.sources) rows.push(['source', `session ${s.sessionId} messages ${s.messageIds.join(', ') || '-'}`]);
  if (m.supersededBy) rows.push(['superseded', `by ${m.supersededBy} at ${m.supersededAt ?? '?'}`]);
  if (m.archivedAt) rows.push(['archived', `${m.archivedAt} (${m.archiveReason ?? 'no reason'})`]);
  if (m.restoredAt) rows.push(['restored', m.restoredAt]);
  if (m.editedAt) rows.push(['edited', `${m.editedAt} (see \`memories history ${m.id}\`)`]);
  for (const r of m.rejected ?? [])
    rows.push([
      'rejected',
      `${r.at} in ${r.project ?? '(no project)'}${r.live ? ` (not injected there; undo: \`memories unreject ${m.id}\`)` : ' (lifted: reinforced since)'}`,
    ]);
  rows.push(...evidenceRows(m));
  return rows.map(([k, v]) => `${`${k}:`.padEnd(12)} ${v}`).join('\n');
}

/** Before the text in `memories list`: rejected in some project and not reinforced since. */
const rejectedMark = (m: Memory): string => (m.rejected?.some((r) => r.live) ? '(rejected) ' : '');

export function memoryTable(memories: Memory[]): string {
  const rows = memories.map((m) => [
    m.id,
    m.type,
    m.scope,
    m.pinned ? 'pin' : m.stable ? 'yes' : 'no',
    ago(m.lastSeenAt),
    clipColumns(escapeControls(rejectedMark(m) + reverifyMark(m) + m.content.replace(/\s+/g, ' ')), 90),
  ]);
  return table(['ID', 'TYPE', 'SCOPE', 'STABLE', 'SEEN', 'CONTENT'], rows);
}

export function registerMemoryCommands(program: Command): void {
  program
    .command('remember')
    .description('store a memory (default: about the project of the current directory)')
    .argument('<text...>', 'what to remember')
    .option('--project <dir>', 'the project it is about: a directory in it, relative to the current one (default: the current directory’s git root)')
    .option('--user', 'about you, recalled in every project')
    .option('--team <name>', 'a team memory')
    .option('--stable', 'never decays (a standing instruction or lasting fact)')
    .option(
      '--type <type>',
      `one of ${MEMORY_TYPES.join(', ')} (default: the kind of the text — a rule is an instruction, a fact a fact, …; else note)`,
      memoryTypeOption,
    )
    .option('--json', 'print the memory as JSON')
    .action(async (text: string[], o: { project?: string; user?: boolean; team?: string; stable?: boolean; type?: MemoryType; json?: boolean }) => {
      if (o.user && (o.project || o.team)) throw new AppError('bad_request', '--user cannot be combined with --project or --team');
      const scope = o.user ? 'user' : o.team ? 'team' : 'project';
      const m = await withDaemon((c) =>
        c.remember({
          content: text.join(' '),
          scope,
          ...(scope === 'project' && { project: resolveDir(o.project ?? '.') }),
          ...(o.team && { team: o.team }),
          stable: Boolean(o.stable),
          ...(o.type && { type: o.type }),
        }),
      );
      if (o.json) printJson(m);
      else process.stdout.write(`${m.id}\n`);
    });

  const memories = program.command('memories').description('list, inspect, forget, restore, pin, export and import memories');
  memories
    .command('list', { isDefault: true })
    .description('active memories of you and the current project (--archived: archived and superseded ones)')
    .option('--project <dir>', 'project directory, relative to the current one (default: the current one)')
    .option('--team <name>', 'include a team’s memories')
    .option('--archived', 'show archived and superseded memories instead')
    .option('-q, --query <text>', 'only those matching (the search recall uses), best match first')
    .option('--type <type>', `only this type: ${MEMORY_TYPES.join(', ')}`, memoryTypeOption)
    .option('--scope <scope>', 'only this scope: user, project, team', oneOf('--scope', ['user', 'project', 'team'] as const))
    .option('--origin <origin>', 'only this origin: heuristic, model, manual, import', oneOf('--origin', ['heuristic', 'model', 'manual', 'import'] as const))
    .option('--pinned', 'only pinned ones')
    .option('--session <id>', 'only those this session gave or reinforced')
    .option('--recent', 'last seen first')
    .option('--offset <n>', 'skip the first N', count('--offset'))
    .option('--limit <n>', 'at most N (1–1000)', count('--limit'))
    .option('--json', 'print JSON')
    .action(async (o: ListOptions) => {
      const { memories: list, total } = await withDaemon((c) =>
        c.call('listMemories', {
          query: {
            project: resolveDir(o.project ?? '.'),
            ...(o.team && { team: o.team }),
            archived: o.archived ? '1' : '0',
            ...(o.query !== undefined && { q: o.query }),
            ...(o.type && { type: o.type }),
            ...(o.scope && { scope: o.scope }),
            ...(o.origin && { origin: o.origin }),
            ...(o.pinned && { pinned: '1' }),
            ...(o.session && { session: o.session }),
            ...(o.recent && { order: 'recent' }),
            offset: o.offset,
            limit: o.limit,
          },
        }),
      );
      if (o.json) return printJson(list);
      await loadWidths();
      if (list.length === 0 && (total ?? 0) === 0) {
        process.stdout.write(o.query !== undefined ? 'no memories match\n' : o.archived ? 'no archived memories\n' : 'no memories yet\n');
        return;
      }
      const from = o.offset ?? 0;
      const paged = total !== undefined && list.length < total;
      process.stdout.write(`${memoryTable(list)}\n${paged ? `${from + 1}–${from + list.length} of ${total}\n` : ''}`);
    });
  memories
    .command('show')
    .description('one memory, with its sources and history')
    .argument('<id>')
    .option('--sources', 'with the messages it came from, opened in place (as `memories sources`)')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean; sources?: boolean }) => {
      if (o.sources) {
        const r = await withDaemon((c) => c.call('memorySources', { params: { id } }));
        if (o.json) printJson(r);
        else process.stdout.write(`${describeMemory(r.memory)}\n\n${describeSources(r.sources)}`);
        return;
      }
      const m = await withDaemon((c) => c.memory(id));
      if (o.json) printJson(m);
      else process.stdout.write(`${describeMemory(m)}\n`);
    });
  registerMemoryBrowseCommands(memories);
  registerRejectCommands(memories);
  for (const [name, what] of [
    ['forget', 'archive a memory (kept, restorable, never recalled)'],
    ['restore', 'bring back an archived or superseded memory'],
    ['pin', 'make a memory stable and important; pinned memories are never pruned'],
  ] as const) {
    memories
      .command(name)
      .description(what)
      .argument('<id>')
      .option('--json', 'print the memory as JSON')
      .action(async (id: string, o: { json?: boolean }) => {
        const m = await withDaemon((c) => c.memoryAction(id, name));
        if (o.json) printJson(m);
        else
          process.stdout.write(
            `${name === 'forget' ? 'archived' : name === 'restore' ? 'restored' : 'pinned'} ${m.id}: ${escapeControls(m.content.slice(0, 80))}\n`,
          );
      });
  }
  memories
    .command('reextract')
    .description(
      'extract every session of the project again with the current extractor: what only a session gave (and you never touched) is archived as replaced, the new extraction merged in',
    )
    .option('--project <dir>', 'project directory (default: the current one)')
    .option('--fallen-back', 'only the sessions the heuristics extracted because the model failed or the daily budget was spent')
    .option('--json', 'print each session’s ingest summary as JSON')
    .action(async (o: { project?: string; fallenBack?: boolean; json?: boolean }) => {
      const r = await withDaemon((c) => c.reextract(resolveDir(o.project ?? '.'), { ...(o.fallenBack && { fallenBack: true }) }));
      if (o.json) return printJson(r);
      if (r.sessions.length === 0 && r.skipped.length === 0) {
        process.stdout.write(`no ingested sessions of ${r.project}\n`);
        return;
      }
      const count = (f: (s: (typeof r.sessions)[number]) => number) => r.sessions.reduce((n, s) => n + f(s), 0);
      process.stdout.write(
        `re-extracted ${r.sessions.length} session(s) of ${r.project}: ${count((s) => s.added.length)} added, ${count((s) => s.reinforced.length)} reinforced, ${count((s) => s.replaced?.length ?? 0)} replaced, ${count((s) => s.detached?.length ?? 0)} kept for their other sources\n`,
      );
      for (const s of r.skipped) process.stderr.write(`skipped ${s.path}: ${s.error}\n`);
    });
  memories
    .command('export')
    .description('every memory (all namespaces, archived included) as JSONL, to FILE or stdout')
    .argument('[file]')
    .action(async (file: string | undefined) => {
      const all = await withDaemon((c) => c.memories({ all: true }));
      const text = all.map((m) => `${JSON.stringify(m)}\n`).join('');
      if (!file) {
        process.stdout.write(text);
        return;
      }
      writeFileSync(file, text, { mode: 0o600 });
      process.stderr.write(`exported ${all.length} memories to ${file}\n`);
    });
  memories
    .command('import')
    .description('add memories from JSONL (each line at least {"content": …}); repeats are skipped')
    .argument('<file>', 'JSONL file, or - for stdin')
    .option('--json', 'print counts as JSON')
    .action(async (file: string, o: { json?: boolean }) => {
      // Every line is checked before anything is sent: a bad line imports nothing.
      const input = file === '-' ? process.stdin : createReadStream(file);
      const parsed: ImportLine[] = [];
      let lineNo = 0;
      try {
        for await (const line of createInterface({ input, crlfDelay: Infinity })) {
          lineNo++;
          if (line.trim() === '') continue;
          let value: unknown;
          try {
            value = JSON.parse(line);
          } catch {
            throw new AppError('bad_request', `${file}:${lineNo}: not valid JSON`);
          }
          const r = ImportLine.safeParse(value);
          if (!r.success)
            throw new AppError('bad_request', `${file}:${lineNo}: ${r.error.issues.map((i) => `${i.path.join('.') || 'line'}: ${i.message}`).join('; ')}`);
          parsed.push(r.data);
        }
      } catch (err) {
        if (err instanceof AppError) throw err;
        throw new AppError('bad_request', `cannot read ${file}: ${(err as Error).message}`);
      }
      const total = { added: 0, duplicates: 0 };
      // Batches stay well under the daemon's request size limit.
      let batch: ImportLine[] = [];
      let bytes = 0;
      const flush = async () => {
        if (batch.length === 0) return;
        const sent = batch;
        batch = [];
        bytes = 0;
        const r = await withDaemon((c) => c.importMemories(sent));
        total.added += r.added;
        total.duplicates += r.duplicates;
      };
      for (const line of parsed) {
        const size = JSON.stringify(line).length;
        if (bytes + size > IMPORT_BATCH_BYTES || batch.length >= 5000) await flush();
        batch.push(line);
        bytes += size;
      }
      await flush();
      if (o.json) printJson(total);
      else process.stdout.write(`imported ${total.added} memories (${total.duplicates} already known, skipped)\n`);
    });
}
