import { resolveDir } from '../project.js';
import type { Command } from 'commander';
import { withDaemon } from '../client/connect.js';
import { humanBytes } from '../client/format.js';
import { ago, loadWidths, table } from './format.js';
import { escapeControls } from '../api/recall-render.js';
import { count } from './memory-browse.js';
import { printJson } from './print-json.js';
import { describeSession } from './session-digest.js';
import { ingestFiles, transcriptFormat, type IngestOptions } from './ingest-files.js';

export function registerSessionCommands(program: Command): void {
  program
    .command('ingest')
    .description('mine transcripts for memories (only what was appended since the last ingest); several files go one after another, each its own session')
    .argument('<files...>', 'Claude Code JSONL, Codex rollout JSONL, or plain messages (JSONL or a JSON array)')
    .option('--format <format>', 'claude-code, codex or messages (default: detected)', transcriptFormat)
    .option('--project <dir>', 'the project it belongs to, a directory (relative to the current one; default: the session’s cwd, else the current directory)')
    .option('--session <id>', 'session id, with one file only (default: from the transcript, else the file name)')
    .option('--reingest', 'read the whole transcript again with the current extractor, replacing what it gave before')
    .option('--async', 'hand it to the daemon and return at once')
    .option('--json', 'print the ingest summary as JSON (with several files: an array, one entry per file, in the order ingested)')
    .addHelpText(
      'after',
      [
        '',
        'Several files are ingested oldest first, each as its own session: by the first time written in',
        "each (files that name none go last, in the order given), so a later session's change retires",
        'what an earlier one said. One that fails does not stop the others: its error is printed (with',
        '--json: {"path", "error": {code, message}}) and the command exits non-zero once all were tried.',
        '',
        'Example: nightshift ingest ~/.claude/projects/-home-me-app/*.jsonl',
      ].join('\n'),
    )
    .action((files: string[], o: IngestOptions) => ingestFiles((fn) => withDaemon(fn), files, o));

  const sessions = program.command('sessions').description('known sessions: list them, or show one with its digest');
  sessions
    .command('show')
    .description('one session: where it came from, and its digest (asked, files changed, commands and their outcome, errors, what was left open)')
    .argument('<id>', 'session id (or a unique prefix of 8+ characters, or the file key)')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const r = await withDaemon((c) => c.session(id));
      if (o.json) printJson(r);
      else process.stdout.write(describeSession(r));
    });
  sessions
    .command('list', { isDefault: true })
    .description('known sessions: project, times and ingest state (--query: the sessions where it was said, best first)')
    .option('--project <dir>', 'only this project’s sessions (a directory in it, relative to the current one)')
    .option('-q, --query <text>', 'search what was said and done, grouped by session, best first')
    .option('--offset <n>', 'skip the first N', count('--offset'))
    .option('--limit <n>', 'at most N (1–1000)', count('--limit'))
    .option('--json', 'print JSON')
    .action(async (o: { project?: string; query?: string; offset?: number; limit?: number; json?: boolean }) => {
      const r = await withDaemon((c) =>
        c.call('sessions', {
          query: {
            ...(o.project !== undefined && { project: resolveDir(o.project) }),
            ...(o.query !== undefined && { q: o.query }),
            // A page is most useful newest first; the whole list is printed oldest first, as before.
            ...((o.offset !== undefined || o.limit !== undefined) && o.query === undefined && { order: 'recent' }),
            offset: o.offset,
            limit: o.limit,
          },
        }),
      );
      const list = r.sessions;
      if (o.json) return printJson(o.query !== undefined ? r : list);
      if (list.length === 0) {
        process.stdout.write(o.query !== undefined ? 'no session matches\n' : 'no sessions ingested yet\n');
        return;
      }
      if (o.query === undefined) list.sort((a, b) => (a.lastMessageAt ?? '').localeCompare(b.lastMessageAt ?? ''));
      await loadWidths();
      const rows = list.map((s) => [
        s.sessionId.slice(0, 36) + (s.agentId ? ` +${s.agentId}` : ''),
        s.project ?? '-',
        ago(s.lastMessageAt),
        s.state + (s.error ? ` (${s.error.slice(0, 40)})` : ''),
        `${humanBytes(s.offset)}/${humanBytes(s.size)}`,
        String(s.messages),
        String(s.memories),
      ]);
      process.stdout.write(`${table(['SESSION', 'PROJECT', 'LAST', 'STATE', 'INGESTED', 'MSGS', 'MEMORIES'], rows)}\n`);
      for (const m of r.matches ?? []) {
        const hit = m.hits[0];
        if (hit) process.stdout.write(`${m.sessionId.slice(0, 36)}: ${hit.role}: ${escapeControls(hit.text.replace(/\s+/g, ' ').slice(0, 100))}\n`);
      }
      if (r.total !== undefined && list.length < r.total) process.stdout.write(`${(o.offset ?? 0) + 1}–${(o.offset ?? 0) + list.length} of ${r.total}\n`);
    });
}
