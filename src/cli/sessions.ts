import { resolve } from 'node:path';
import { resolveDir } from '../project.js';
import type { Command } from 'commander';
import type { IngestSummary } from '../api/memory.js';
import { AppError, type ErrorCode } from '../errors.js';
import { withDaemon } from '../client/connect.js';
import { humanBytes } from '../client/format.js';
import { ago, loadWidths, table } from './format.js';
import { escapeControls } from '../api/recall-render.js';
import { count } from './memory-browse.js';
import { printJson } from './print-json.js';
import { inTimeOrder } from './transcript-order.js';
import { exitCodeOf } from './report.js';
import { describeSession } from './session-digest.js';

const FORMATS = ['claude-code', 'codex', 'messages'] as const;
type Format = (typeof FORMATS)[number];

function transcriptFormat(v: string): Format {
  if (!(FORMATS as readonly string[]).includes(v)) throw new AppError('bad_request', `--format must be one of ${FORMATS.join(', ')}; got "${v}"`);
  return v as Format;
}

/** Errors that are the daemon's, not a file's. */
const DAEMON_GONE: ReadonlySet<ErrorCode> = new Set(['daemon_unavailable', 'connection_lost']);

/** What one file of a multi-file ingest came to. */
type IngestOutcome = IngestSummary | { path: string; queued: true } | { path: string; error: { code: ErrorCode; message: string } };

function describeSummary(s: IngestSummary): string {
  if (s.unchanged) return `${s.path}: unchanged since the last ingest (${s.toOffset} bytes), nothing to do\n`;
  const lines = [
    `session ${s.sessionId} (${s.format}${s.project ? `, project ${s.project}` : ''}): ${s.messages} messages, bytes ${s.fromOffset}–${s.toOffset}, ${s.durationMs} ms`,
    `extractor: ${s.extractor}${s.fallback ? ` (fell back: ${s.fallback})` : ''}${s.tokens ? `, ${s.tokens.input} input + ${s.tokens.output} output tokens` : ''}${s.costUsd !== undefined ? `, $${s.costUsd.toFixed(4)}` : ''}`,
  ];
  if (s.malformedLines > 0) lines.push(`skipped ${s.malformedLines} malformed line(s)`);
  if (s.replaced)
    lines.push(`re-extracted: ${s.replaced.length} earlier memories archived as replaced, ${s.detached?.length ?? 0} kept with their other sources`);
  if (s.secretsMasked > 0) lines.push(`masked ${s.secretsMasked} secret(s)`);
  const list = (title: string, ms: { id: string; type: string; content: string }[]) => {
    lines.push(`${title}: ${ms.length}`);
    for (const m of ms) lines.push(`  ${m.id} [${m.type}] ${m.content.replace(/\s+/g, ' ').slice(0, 100)}`);
  };
  list('added', s.added);
  list('reinforced', s.reinforced);
  list('superseded', s.superseded);
  return `${lines.join('\n')}\n`;
}

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
    .action(async (files: string[], o: { format?: Format; project?: string; session?: string; reingest?: boolean; async?: boolean; json?: boolean }) => {
      if (o.session !== undefined && files.length > 1) throw new AppError('bad_request', `--session names one session; got ${files.length} files`);
      const request = (file: string) => ({
        path: resolve(file),
        cwd: process.cwd(),
        wait: !o.async,
        ...(o.format && { format: o.format }),
        ...(o.project && { project: resolveDir(o.project) }),
        ...(o.session && { sessionId: o.session }),
        ...(o.reingest && { reingest: true }),
      });
      if (files.length === 1) {
        const r = await withDaemon((c) => c.ingest(request(files[0] as string)));
        if (o.json) return printJson(r.summary ?? { queued: true });
        if (!r.summary) process.stdout.write(`queued ${resolve(files[0] as string)} for ingest (see \`nightshift sessions\`)\n`);
        else process.stdout.write(describeSummary(r.summary));
        return;
      }
      // Each file's outcome is printed as it comes (a long set shows its progress); --json prints them all at the end.
      let exit = 0;
      const results = await withDaemon(async (c) => {
        const out: IngestOutcome[] = [];
        const ordered = inTimeOrder(files);
        for (const [i, file] of ordered.entries()) {
          let outcome: IngestOutcome;
          // The next file is named so the daemon reads it while it extracts this one.
          const next = ordered[i + 1];
          try {
            const r = await c.ingest({ ...request(file), ...(next !== undefined && { next: resolve(next) }) });
            outcome = r.summary ?? { path: resolve(file), queued: true };
            if (!o.json) process.stdout.write(r.summary ? describeSummary(r.summary) : `queued ${resolve(file)} for ingest (see \`nightshift sessions\`)\n`);
          } catch (err) {
            // The daemon gone is no one file's failure: the rest would fail the same way. Run again,
            // the files already ingested are unchanged and cost nothing.
            if (!(err instanceof AppError) || DAEMON_GONE.has(err.code)) throw err;
            outcome = { path: resolve(file), error: err.toJSON() };
            exit = Math.max(exit, exitCodeOf(err));
            if (!o.json) process.stderr.write(`nightshift: ${err.message}\n`);
          }
          out.push(outcome);
        }
        return out;
      });
      if (o.json) printJson(results);
      const failed = results.filter((r) => 'error' in r).length;
      if (failed > 0) {
        if (!o.json) process.stderr.write(`nightshift: ${failed} of ${files.length} files failed\n`);
        process.exitCode = exit;
      }
    });

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
