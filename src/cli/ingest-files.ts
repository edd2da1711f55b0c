/**
 * What `nightshift ingest` does, given a way to reach the daemon: commander's command calls it with
 * the full client, the fast path (cli/fast.ts) with the light one, so a script that ingests file by
 * file does not load the whole CLI each time. Zod-free and commander-free on purpose.
 */
import { resolve } from 'node:path';
import type { ApiClient } from '../client/api-client.js';
import type { IngestSummary } from '../api/memory.js';
import { AppError, type ErrorCode } from '../errors.js';
import { resolveDir } from '../project.js';
import { printJson } from './print-json.js';
import { exitCodeOf } from './report.js';
import { inTimeOrder } from './transcript-order.js';

export const FORMATS = ['claude-code', 'codex', 'messages'] as const;
export type Format = (typeof FORMATS)[number];

export function transcriptFormat(v: string): Format {
  if (!(FORMATS as readonly string[]).includes(v)) throw new AppError('bad_request', `--format must be one of ${FORMATS.join(', ')}; got "${v}"`);
  return v as Format;
}

export interface IngestOptions {
  format?: Format;
  project?: string;
  session?: string;
  reingest?: boolean;
  async?: boolean;
  json?: boolean;
}

/** The one call this command makes; ApiClient and LightClient both have it. */
export type IngestClient = Pick<ApiClient, 'ingest'>;
export type IngestCaller = <T>(fn: (c: IngestClient) => Promise<T>) => Promise<T>;

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

/** Ingests `files` (oldest first when several), printing each outcome; sets the exit code when one failed. */
export async function ingestFiles(call: IngestCaller, files: readonly string[], o: IngestOptions): Promise<void> {
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
    const r = await call((c) => c.ingest(request(files[0] as string)));
    if (o.json) return printJson(r.summary ?? { queued: true });
    if (!r.summary) process.stdout.write(`queued ${resolve(files[0] as string)} for ingest (see \`nightshift sessions\`)\n`);
    else process.stdout.write(describeSummary(r.summary));
    return;
  }
  // Each file's outcome is printed as it comes (a long set shows its progress); --json prints them all at the end.
  let exit = 0;
  const results = await call(async (c) => {
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
}
