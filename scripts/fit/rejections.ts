/**
 * Labelled negatives from people: the memories rejected as "not useful" (the dashboard, `nightshift
 * memories reject`), read offline from the daemon's injection ledger. Each rejection names its
 * source messages and their transcripts; the candidate the memory came from is found again there
 * by the daemon's own parser, candidates and features, and joins the fit as unwanted junk (wanted
 * 0, junk 1). A transcript that is gone, or a memory no candidate matches (a manual one), adds
 * nothing. The fit trains on them; the out-of-fold figures stay the labelled corpus's.
 */
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { collectCandidates } from '../../src/memory/candidates/index.js';
import type { ExtractMessage } from '../../src/memory/extract/types.js';
import { forExtraction } from '../../src/memory/ingest/ingest-messages.js';
import type { Rejection } from '../../src/inject/rejections.js';
import { dedupeKey } from '../../src/memory/nlp/tidy.js';
import { readCandidate } from '../../src/memory/rank/features.js';
import { sessionContext } from '../../src/memory/rank/session-context.js';
import { parseTranscript } from '../../src/memory/transcripts/index.js';
import type { LabelledFile, Row } from './corpus.js';

/** Where the daemon keeps its ledger (NIGHTSHIFT_HOME, else the XDG state directory), as src/paths.ts puts it. */
export function defaultLedger(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NIGHTSHIFT_HOME) return join(env.NIGHTSHIFT_HOME, 'state', 'injections.jsonl');
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'nightshift', 'injections.jsonl');
}

export function readRejections(ledger: string): Rejection[] {
  if (!existsSync(ledger)) return [];
  const out = new Map<string, Rejection>();
  for (const line of readFileSync(ledger, 'utf8').split('\n')) {
    try {
      const l = JSON.parse(line) as { t?: string; v?: Rejection; memoryId?: string; project?: string | null };
      if (l.t === 'reject' && l.v) out.set(`${l.v.project ?? ''}\u0000${l.v.memoryId}`, l.v);
      // Undone (`memories unreject`): the person took it back, so it is no negative.
      else if (l.t === 'unreject') out.delete(`${l.project ?? ''}\u0000${l.memoryId ?? ''}`);
    } catch {
      // a torn or empty line
    }
  }
  return [...out.values()];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function messagesOf(path: string, format: string | undefined): Promise<ExtractMessage[]> {
  const parse = await parseTranscript(path, format === 'claude-code' || format === 'codex' ? { format } : {});
  const out: ExtractMessage[] = [];
  for await (const m of parse.messages) {
    const x = forExtraction(m);
    if (x !== undefined) out.push(x);
  }
  return out;
}

/** One row per rejection whose candidate is found in a transcript still on disk. */
export async function rejectionRows(ledger: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (const r of readRejections(ledger)) {
    const ids = new Set(r.sources.flatMap((s) => s.messageIds));
    const want = dedupeKey(r.content);
    for (const t of r.transcripts) {
      if (!existsSync(t.path)) continue;
      const messages = await messagesOf(t.path, t.format);
      const session = sessionContext(messages);
      const c = collectCandidates(messages).find((x) => dedupeKey(x.text) === want || (ids.has(x.messageId) && x.text.includes(r.content)));
      if (c === undefined) continue;
      const file: LabelledFile = {
        file: t.path,
        format: t.format === 'codex' ? 'codex' : 'claude-code',
        project: `rejected:${r.project ?? ''}`,
        group: 'rejected',
        corpus: 'rejected',
        wanted: [],
        junk: [{ regex: escape(c.text), what: `rejected ${r.memoryId}`, evidence: '' }],
      };
      rows.push({
        file,
        text: c.text,
        ...(({ kind, features }) => ({ kind, x: features }))(readCandidate(c, session)),
        source: c.source,
        // The person rejected it: a row to learn from, not one kept whatever its score.
        verdict: false,
        wanted: 0,
        junk: 1,
        wantedWeight: 1,
        junkWeight: 1,
        slot: undefined,
        wording: dedupeKey(c.text),
        matchesWanted: [],
        matchesJunk: [0],
      });
      break;
    }
  }
  return rows;
}
