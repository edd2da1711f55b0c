/**
 * Recall at prompt time (Claude Code's UserPromptSubmit hook): the recall with the prompt as its
 * query, kept only where it matches well, cut to a few lines, and never what this session was
 * given before, at its start or an earlier prompt. What each session got is remembered here,
 * bounded, and saved in the state directory so a restarted daemon does not repeat itself; it is
 * marked by the caller once the answer reached the hook (`given`), never while choosing.
 */
import { PROMPT_QUERY_CHARS } from '../../api/limits.js';
import { z } from 'zod';
import type { PromptRecallRequest, PromptRecallResponse, RecallItem, RecallRequest, RecallResponse } from '../../api/memory.js';
import { nowMs } from '../../clock.js';
import type { Logger } from '../../log.js';
import { DurableJsonFile } from '../../sys/state-file.js';
import { normalize, terms } from '../nlp/text.js';
import type { Said } from './echo.js';
import type { RecallWithin } from './recall.js';

/**
 * What counts as a match for a prompt. Recall ranks by BM25 over the prompt's words, so one shared
 * word scores as much as a rare word can, whether it is the point of the prompt ("keep sessions in
 * redis") or incidental ("write a haiku" and "always write commit messages"): on the set of
 * bench/prompt-recall.ts the two kinds score alike (2.8–3.5), and BM25's scale moves with the
 * store (a perfect match in a store of one memory scores 1.4). So an item is injected when it
 * shares at least MIN_TERMS distinct words with the prompt, stop words aside (an excerpt of a past
 * session, which is longer and chattier, EPISODE_MIN_TERMS); MIN_SCORE only keeps out what recall
 * adds without a match (standing instructions, scored 0.01 or less). On that set this injects
 * nothing for every unrelated prompt and the right memory for 12 of 14 related ones (BENCHMARKS.md).
 */
export const MIN_TERMS = 2;
export const EPISODE_MIN_TERMS = 3;
export const MIN_SCORE = 0.1;
/** Lines of a prompt's context at most: a few good ones, not a recall block. */
const MAX_ITEMS = 5;
/** Characters the hook adds around each item's text (bullet, type or date) and for its heading. */
export const LINE_FRAME = 20;
export const HEADER_CHARS = 50;
/** Sessions remembered (the least recently prompted go first) and items per session. */
const MAX_SESSIONS = 500;
const MAX_PER_SESSION = 1000;
const SAVE_AFTER_MS = 500;

/** Texts whose words are kept, about a store's worth: the same memories come back prompt after prompt. */
const TERMS_KEPT = 20_000;
const termCache = new Map<string, readonly string[]>();

/** A text's distinct words; worked out once per text (a text never changes its words), forgotten all at once when full. */
function termsOf(text: string): readonly string[] {
  let t = termCache.get(text);
  if (t === undefined) {
    if (termCache.size >= TERMS_KEPT) termCache.clear();
    t = [...new Set(terms(text))];
    termCache.set(text, t);
  }
  return t;
}

function sharedTerms(asked: Set<string>, text: string): number {
  let n = 0;
  for (const t of termsOf(text)) if (asked.has(t)) n++;
  return n;
}

const SessionInjections = z.object({ at: z.number(), ids: z.array(z.unknown()).transform((ids) => ids.filter((x): x is string => typeof x === 'string')) });
type SessionInjections = z.infer<typeof SessionInjections>;
// A session entry of another shape is dropped alone: the file only prevents repeats.
const InjectionsFile = z.object({ sessions: z.record(z.string(), z.unknown()).default({}) });

/** Recall narrowed by the caller (memory/service.ts `recall`), and what a memory says, by id. */
export interface PromptRecallDeps {
  recall: (req: RecallRequest, within: RecallWithin) => RecallResponse;
  said: (id: string) => Said | undefined;
}

export class PromptRecall {
  private readonly sessions: Map<string, SessionInjections>;
  private saveTimer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    private readonly file: DurableJsonFile<typeof InjectionsFile>,
    private readonly d: PromptRecallDeps,
    private readonly log: Logger,
    sessions: Map<string, SessionInjections>,
  ) {
    this.sessions = sessions;
  }

  /** Loads what earlier sessions were given; a missing file is a fresh start, and so is one that cannot be read (moved aside). */
  static open(path: string, deps: PromptRecallDeps, log: Logger): PromptRecall {
    const file = new DurableJsonFile(path, InjectionsFile);
    const { data, setAside } = file.readOrSetAside();
    if (setAside) log.warn({ movedTo: setAside.movedTo, err: setAside.error }, 'prompt injections unreadable; moved aside, starting afresh');
    const sessions = new Map<string, SessionInjections>();
    for (const [id, raw] of Object.entries(data?.sessions ?? {})) {
      const s = SessionInjections.safeParse(raw);
      if (s.success) sessions.set(id, s.data);
    }
    return new PromptRecall(file, deps, log, new Map([...sessions].sort((a, b) => a[1].at - b[1].at)));
  }

  /**
   * What the prompt gets. Its tests narrow the recall before the budget is filled, so an excerpt
   * is only left out for a memory this answer gives or the session already has (echo.ts), never
   * for one the prompt does not match well enough to be given.
   */
  forPrompt(req: PromptRecallRequest): PromptRecallResponse {
    const query = req.prompt.slice(0, PROMPT_QUERY_CHARS).trim();
    if (!query) return { items: [], repeated: 0 };
    const asked = new Set(terms(query));
    const given = req.sessionId ? new Set(this.sessions.get(req.sessionId)?.ids) : new Set<string>();
    let repeated = 0;
    const keep = (item: RecallItem): boolean => {
      // Digests ("recent sessions here") come with every recall for a project: session-start's, not a match.
      if (item.kind !== 'memory' && item.kind !== 'episode') return false;
      if (item.score < MIN_SCORE || sharedTerms(asked, item.text) < (item.kind === 'episode' ? EPISODE_MIN_TERMS : MIN_TERMS)) return false;
      // This session's own words (ingested at a compaction, or the prompt itself) are no recall, nor a
      // memory that only this session said: the agent has it in its context already.
      if (item.kind === 'episode' && (item.sources.some((s) => s.sessionId === req.sessionId) || normalize(item.text) === normalize(query))) return false;
      if (item.kind === 'memory' && req.sessionId !== undefined && item.sources.length > 0 && item.sources.every((s) => s.sessionId === req.sessionId))
        return false;
      if (given.has(item.id)) repeated++;
      return !given.has(item.id);
    };
    const had = [...given].flatMap((id) => this.d.said(id) ?? []);
    const r = this.d.recall({ query, episodes: true, ...(req.project && { project: req.project }) }, { keep, had });
    const items: RecallItem[] = [];
    let room = req.maxChars - HEADER_CHARS;
    for (const item of r.items) {
      if (item.kind !== 'memory' && item.kind !== 'episode') continue;
      if (items.length >= MAX_ITEMS || item.text.length + LINE_FRAME > room) continue;
      items.push(item);
      room -= item.text.length + LINE_FRAME;
    }
    return { items, repeated };
  }

  /** Marks `ids` as given to the session: they reached it (a session-start block, a prompt's context). */
  given(sessionId: string, ids: readonly string[]): void {
    if (ids.length === 0) return;
    const s = this.sessions.get(sessionId) ?? { at: 0, ids: [] };
    this.sessions.delete(sessionId); // re-inserted last: the map's order is least recently prompted first
    s.at = nowMs();
    // Once each, the latest last: what is cut at the bound is what the session got longest ago.
    const fresh = new Set(ids);
    s.ids = [...s.ids.filter((id) => !fresh.has(id)), ...fresh].slice(-MAX_PER_SESSION);
    this.sessions.set(sessionId, s);
    for (const oldest of this.sessions.keys()) {
      if (this.sessions.size <= MAX_SESSIONS) break;
      this.sessions.delete(oldest);
    }
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = undefined;
      void this.save();
    }, SAVE_AFTER_MS);
  }

  private save(): Promise<void> {
    // Copied now: what is saved is what was given up to this call.
    const data = { sessions: Object.fromEntries([...this.sessions].map(([id, s]) => [id, { ...s }])) };
    this.saving = this.saving
      .then(() => this.file.write(data))
      .catch((err: unknown) => this.log.warn({ err: (err as Error).message }, 'could not save prompt injections'));
    return this.saving;
  }

  /** Saves what is pending (daemon shutdown). */
  async flush(): Promise<void> {
    if (this.saveTimer) {
      clearTimeout(this.saveTimer);
      this.saveTimer = undefined;
      await this.save();
    }
    await this.saving;
  }
}
