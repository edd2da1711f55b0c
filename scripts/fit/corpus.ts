/**
 * The labelled corpus as the ranker sees it: each transcript read by the daemon's own parser, its
 * candidates collected and featurised by the daemon's own code, each candidate labelled from the
 * corpus's regexes and evidence lines:
 * - wanted 1: matches a wanted item's regex and comes from (near) one of its evidence lines;
 *   wanted undefined: matches a wanted regex elsewhere (left out of the fit: neither clearly yes nor no);
 * - junk 1: matches a junk item's regex.
 */
import { readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { collectCandidates } from '../../src/memory/candidates/index.js';
import type { ExtractMessage } from '../../src/memory/extract/types.js';
import { forExtraction } from '../../src/memory/ingest/ingest-messages.js';
import { FEATURES, readCandidate } from '../../src/memory/rank/features.js';
import { isVerdict, type Kind } from '../../src/memory/rank/kind.js';
import type { CandidateSource } from '../../src/memory/candidates/index.js';
import { sessionContext } from '../../src/memory/rank/session-context.js';
import { slotKey, slotOf } from '../../src/memory/store/slots.js';
import { dedupeKey } from '../../src/memory/nlp/tidy.js';
import { parseTranscript } from '../../src/memory/transcripts/index.js';
import { DEFAULT_BUDGET, STATE_HEADING_TOKENS, STATE_SHARE } from '../../src/memory/recall/budget.js';
import { emptySessionState, resolveState, StateBuilder, stateItems, type SessionState } from '../../src/memory/state/index.js';

export interface LabelItem {
  id?: string;
  regex: string;
  what: string;
  evidence: string;
}
export interface LabelledFile {
  file: string;
  format: 'claude-code' | 'codex';
  project: string;
  group: string;
  wanted: LabelItem[];
  junk: LabelItem[];
  /** The corpus (its folder's name) the file belongs to. */
  corpus: string;
  /**
   * The "Current state" lines the daemon shows for the file's project (the agent's record of all
   * the project's labelled sessions), set by `corpusRows`: what they recall the memories need not.
   */
  state?: readonly string[];
}

export interface Row {
  file: LabelledFile;
  text: string;
  x: number[];
  kind: Kind;
  source: CandidateSource;
  /** A verdict the person gave (kind.ts `isVerdict`): kept whatever its score, outside the keep policy. */
  verdict: boolean;
  wanted: 0 | 1 | undefined;
  junk: 0 | 1;
  /** Weight in the fit: a wanted (or junk) item many candidates match counts once in all, not once per candidate. */
  wantedWeight: number;
  junkWeight: number;
  slot: string | undefined;
  wording: string;
  /** The file's wanted and junk items (by index) whose regex this candidate's text matches, wherever it was said. */
  matchesWanted: number[];
  matchesJunk: number[];
}

/** The corpus of real sessions; every other corpus is written, and marked so in its rows. */
const REAL_CORPUS = 'real-sessions';
const SYNTHETIC = FEATURES.indexOf('corpus.synthetic');

/** Evidence "12, 40-42" as line numbers. */
function evidenceLines(evidence: string): Set<number> {
  const out = new Set<number>();
  for (const part of evidence.split(/[,;\s]+/)) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (m === null) continue;
    for (let i = Number(m[1]); i <= Number(m[2] ?? m[1]); i++) out.add(i);
  }
  return out;
}

/** Message id → line number: Claude Code ids are line uuids, Codex ids byte offsets ("@123"). */
function lineIndex(path: string): (id: string) => number {
  const text = readFileSync(path, 'utf8');
  const map = new Map<string, number>();
  let offset = 0;
  text.split('\n').forEach((line, i) => {
    map.set(`@${offset}`, i + 1);
    offset += Buffer.byteLength(line) + 1;
    try {
      const j = JSON.parse(line) as { uuid?: unknown };
      if (typeof j.uuid === 'string') map.set(j.uuid, i + 1);
    } catch {
      // lines that are not JSON have no id
    }
  });
  return (id) => map.get(id) ?? map.get(id.replace(/:.*$/, '')) ?? -1;
}

/** An evidence line cites the transcript line of the message, or the one or two just after (Codex echoes a message). */
const NEAR = [-1, 0, 1, 2];

/** The messages extraction reads, and the session's state record (the daemon builds it from the same stream). */
async function messagesOf(path: string, format: LabelledFile['format']): Promise<{ messages: ExtractMessage[]; state: SessionState }> {
  const parse = await parseTranscript(path, { format });
  const messages: ExtractMessage[] = [];
  const state = emptySessionState(path, path);
  const builder = new StateBuilder(state);
  for await (const m of parse.messages) {
    builder.add(m);
    const x = forExtraction(m);
    if (x !== undefined) messages.push(x);
  }
  return { messages, state: builder.result() };
}

/** The room the state section has in the default budget, as recall gives it. */
const STATE_ROOM = Math.floor(DEFAULT_BUDGET * STATE_SHARE) - STATE_HEADING_TOKENS;

/** Each project's state lines, from the records of its files' sessions, set on every file of it. */
function setProjectState(files: readonly LabelledFile[], records: ReadonlyMap<LabelledFile, SessionState>): void {
  const byProject = new Map<string, LabelledFile[]>();
  for (const f of files) byProject.set(f.project, [...(byProject.get(f.project) ?? []), f]);
  for (const [project, list] of byProject) {
    const sessions = list.flatMap((f) => records.get(f) ?? []);
    const texts = stateItems(
      resolveState({ version: 1, project, sessions, archive: [] }, () => 0),
      STATE_ROOM,
    ).items.map((i) => i.text);
    for (const f of list) f.state = texts;
  }
}

/** A corpus's labelled files; groups are prefixed with the corpus's folder name, so two corpora never share a person. */
export function loadLabels(path: string): LabelledFile[] {
  const corpus = basename(dirname(path));
  return (JSON.parse(readFileSync(path, 'utf8')) as Omit<LabelledFile, 'corpus'>[]).map((f) => ({ ...f, corpus, group: `${corpus}/${f.group}` }));
}

export async function corpusRows(labelsPath: string, files: readonly LabelledFile[]): Promise<Row[]> {
  const base = dirname(labelsPath);
  const rows: Row[] = [];
  const records = new Map<LabelledFile, SessionState>();
  for (const f of files) {
    const path = join(base, f.file);
    const { messages, state } = await messagesOf(path, f.format);
    records.set(f, state);
    const session = sessionContext(messages);
    const lineOf = lineIndex(path);
    const wanted = f.wanted.map((w) => ({ rx: new RegExp(w.regex, 'i'), lines: evidenceLines(w.evidence) }));
    const junk = f.junk.map((j) => new RegExp(j.regex, 'i'));
    const fileRows: (Row & { hits: number[]; junkHits: number[] })[] = [];
    for (const c of collectCandidates(messages)) {
      const { kind, features: x } = readCandidate(c, session);
      if (f.corpus !== REAL_CORPUS) x[SYNTHETIC] = 1;
      const line = lineOf(c.messageId);
      const hits = wanted.flatMap((w, i) => (w.rx.test(c.text) && NEAR.some((d) => w.lines.has(line + d)) ? [i] : []));
      const elsewhere = wanted.some((w) => w.rx.test(c.text));
      const junkHits = junk.flatMap((rx, i) => (rx.test(c.text) ? [i] : []));
      const slot = c.text.length <= 240 && c.sentence.english ? slotOf(c.text) : undefined;
      fileRows.push({
        file: f,
        text: c.text,
        x,
        kind,
        source: c.source,
        verdict: isVerdict(kind, c),
        wanted: hits.length > 0 ? 1 : elsewhere ? undefined : 0,
        junk: junkHits.length > 0 ? 1 : 0,
        wantedWeight: 1,
        junkWeight: 1,
        slot: slot === undefined ? undefined : `${slotKey(slot)}\u0000${slot.value}`,
        wording: dedupeKey(c.text),
        matchesWanted: wanted.flatMap((w, i) => (w.rx.test(c.text) ? [i] : [])),
        matchesJunk: junkHits,
        hits,
        junkHits,
      });
    }
    // Each labelled item weighs one in all, shared among the candidates that carry it.
    const share = (lists: number[][]): Map<number, number> => {
      const n = new Map<number, number>();
      for (const l of lists) for (const i of l) n.set(i, (n.get(i) ?? 0) + 1);
      return n;
    };
    const perWanted = share(fileRows.map((r) => r.hits));
    const perJunk = share(fileRows.map((r) => r.junkHits));
    for (const { hits, junkHits, ...r } of fileRows) {
      if (hits.length > 0) r.wantedWeight = Math.max(...hits.map((i) => 1 / (perWanted.get(i) ?? 1)));
      if (junkHits.length > 0) r.junkWeight = Math.max(...junkHits.map((i) => 1 / (perJunk.get(i) ?? 1)));
      rows.push(r);
    }
  }
  setProjectState(files, records);
  return rows;
}
