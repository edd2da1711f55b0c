/**
 * The project's current state from its sessions' records, oldest first: a later task list
 * replaces an earlier one's items, a commit or a report that says something was done closes the
 * pending item it covers (as a placeholder the agent filled in closes what was left open about
 * it), a later compaction summary replaces an older one (and any later session's record, or a
 * commit after it, makes a summary stale), and an item left pending for many of the project's
 * sessions with nothing said of it ages out. Reverted commits and unapproved plans never count as
 * built.
 */
import { CHORE_VERBS, INQUIRY_VERBS } from '../nlp/lexicon.js';
import { closes, covers, sameWork, saysAsWell } from './match.js';
import { saysWhatWasDone } from './report.js';
import type { ProjectState, SessionState, StateEntry } from './schema.js';

/** Of what a session's last report says was done, at most this many pieces. */
const REPORT_CLAIMS_SHOWN = 3;

/** An open item ages out after this many of the project's sessions with nothing said of it (decay halves a memory every 10). */
export const AGE_SESSIONS = 4;

/**
 * A task that looked into something, or worked the repository or the running system, built nothing:
 * "Research the flags", "Verify the setup", "Locate the capture codebase", "Push all documentation
 * changes", "Restart the server" (a commit is recorded as itself).
 */
const lookedInto = (text: string): boolean => {
  const first = /^\W*([a-z]+)/i.exec(text)?.[1]?.toLowerCase() ?? '';
  return INQUIRY_VERBS.has(first) || CHORE_VERBS.has(first) || first === 'stage' || first === 'run';
};

/** `request`: what the person asked for and the agent changed files for; `archive`: finished work of a session the dream no longer keeps whole. */
export type StateSource = 'commit' | 'plan' | 'todo' | 'request' | 'report' | 'summary' | 'found' | 'archive';

export interface StateLine {
  kind: 'built' | 'open' | 'found';
  source: StateSource;
  text: string;
  sessionId: string;
  messageIds: string[];
  at?: string | undefined;
  /** Commits: their short hashes. */
  hashes?: string[];
  /** Commits: the person's requests of the session the commit says as well (given once, as the commit). */
  alsoSays?: string[];
  /** Open todo items: in progress or pending. */
  status?: 'pending' | 'in_progress';
  /** When the session it comes from ended (what ageing counts from). */
  sessionAt?: string | undefined;
}

function line(kind: StateLine['kind'], source: StateSource, e: StateEntry, s: SessionState, extra: Partial<StateLine> = {}): StateLine {
  return { kind, source, text: e.text, sessionId: s.sessionId, messageIds: [e.messageId], at: e.at ?? s.lastAt, sessionAt: s.lastAt ?? s.firstAt, ...extra };
}

/** `a` came no earlier than `b` (unknown times count as later: the record is in session order). */
const notBefore = (a: string | undefined, b: string | undefined) => a === undefined || b === undefined || a >= b;
/** `a` is known to come after `b`. */
const after = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && a > b;

/** Sessions in the order they happened. */
export function ordered(state: ProjectState): SessionState[] {
  return [...state.sessions].sort((a, b) => (a.firstAt ?? a.lastAt ?? '').localeCompare(b.firstAt ?? b.lastAt ?? ''));
}

function hasRecord(s: SessionState): boolean {
  return (
    s.commits.length + s.plans.length + s.todos.length + s.summary.length + s.requests.length + s.reportPending.length + s.claims.length + s.filled.length > 0
  );
}

/** Commits of one session that name the same piece of work, as one line. */
function mergeBuilt(lines: StateLine[]): StateLine[] {
  const out: StateLine[] = [];
  for (const l of lines) {
    const same = out.find((o) => o.sessionId === l.sessionId && o.source === l.source && sameWork(o.text, l.text));
    if (same === undefined) out.push({ ...l });
    else {
      same.messageIds.push(...l.messageIds);
      if (l.hashes !== undefined) same.hashes = [...new Set([...(same.hashes ?? []), ...l.hashes])];
      if (l.alsoSays !== undefined) same.alsoSays = [...new Set([...(same.alsoSays ?? []), ...l.alsoSays])];
      same.at = l.at ?? same.at;
    }
  }
  return out;
}

/**
 * The current state: open items (oldest first), built and found (newest last). `sessionsAfter`
 * counts the project's sessions that started after a time: what ages an open item.
 */
export function resolveState(state: ProjectState, sessionsAfter: (iso: string) => number): StateLine[] {
  let open: StateLine[] = [];
  const built: StateLine[] = [];
  const found: StateLine[] = [];
  const sessions = ordered(state).filter(hasRecord);
  for (const s of sessions) {
    // Any later record makes an older compaction summary's pending steps stale.
    open = open.filter((o) => o.source !== 'summary');
    // A later report's pending part is the agent's newer word on what is left, in whatever words
    // (or language) it said it in before.
    if (s.reportPending.length > 0) open = open.filter((o) => o.source !== 'report');
    // What was built closes what it covers: a commit, a done claim, a change the person asked for
    // that the agent then made.
    const closers: { text: string; at?: string | undefined }[] = [
      ...s.commits.filter((c) => c.reverted !== true).map((c) => ({ text: c.text, at: c.at })),
      ...s.claims.map((c) => ({ text: c.text, at: c.at })),
      ...s.requests.map((r) => ({ text: r.text, at: r.at })),
    ];
    // The agent said nothing is left: what earlier sessions left open is settled.
    if (s.cleared === true) open = [];
    const mentioned = [...s.todos, ...s.reportPending, ...s.summary];
    // Said again in this session (in any status): this session's word replaces the older item.
    open = open.filter((o) => !mentioned.some((m) => sameWork(m.text, o.text)));
    const fresh: StateLine[] = [
      ...s.todos.flatMap((t) => (t.status === 'completed' ? [] : [line('open', 'todo', t, s, { status: t.status })])),
      ...s.reportPending.map((r) => line('open', 'report', r, s)),
      ...s.summary.map((r) => line('open', 'summary', r, s)),
    ];
    for (const f of fresh) if (!open.some((o) => o.sessionId === s.sessionId && sameWork(o.text, f.text))) open.push(f);
    // A completed todo of this session closes what it covers, as a commit or a done claim does.
    const done = [...closers, ...s.todos.filter((t) => t.status === 'completed').map((t) => ({ text: t.text, at: t.at }))];
    open = open.filter((o) => !done.some((c) => (o.sessionId !== s.sessionId || notBefore(c.at, o.at)) && covers(c.text, o.text)));
    // A placeholder the agent filled in ("TODO: paste the Render URL here") did what was left open
    // about it ("still open: the TODO for the live Render URL"): the item names it loosely, as the
    // person's account of open work does.
    open = open.filter((o) => !s.filled.some((f) => (o.sessionId !== s.sessionId || notBefore(f.at, o.at)) && closes(f.text, o.text)));
    const commits = s.commits.filter((c) => c.reverted !== true);
    // A summary's pending steps are the steps of the work in hand: a commit after the summary
    // carried that work on, and names it as a whole rather than step by step.
    open = open.filter((o) => o.source !== 'summary' || o.sessionId !== s.sessionId || !commits.some((c) => after(c.at, o.at)));
    // The person's requests each commit says as well: given once, as the commit (it says it better).
    const saysOf = commits.map((c) => s.requests.filter((r) => saysAsWell(c.text, r.text)));
    const saidByCommit = new Set(saysOf.flat());
    built.push(
      ...mergeBuilt(
        commits.map((c, i) => {
          const says = (saysOf[i] ?? []).map((r) => r.text);
          return line('built', 'commit', c, s, { ...(c.hash !== undefined && { hashes: [c.hash] }), ...(says.length > 0 && { alsoSays: says }) });
        }),
      ),
      ...s.plans.filter((p) => p.carried).map((p) => line('built', 'plan', p, s)),
      ...s.requests.filter((r) => !lookedInto(r.text) && !saidByCommit.has(r)).map((r) => line('built', 'request', r, s)),
    );
    // A session's work its commits do not name, as its last task list marks it completed.
    built.push(
      ...s.todos
        .filter((t) => t.status === 'completed' && !lookedInto(t.text) && !commits.some((c) => saysAsWell(c.text, t.text)))
        .map((t) => line('built', 'todo', t, s)),
    );
    // What the session's last report says it did, where nothing else of the session says it as well;
    // a session that committed says its work in its commits.
    const lastReport = commits.length > 0 ? undefined : s.claims.at(-1)?.messageId;
    const saidElsewhere = [...commits, ...s.requests, ...s.todos.filter((t) => t.status === 'completed')];
    built.push(
      ...s.claims
        .filter((c) => c.messageId === lastReport && saysWhatWasDone(c.text) && !saidElsewhere.some((x) => saysAsWell(x.text, c.text)))
        .slice(0, REPORT_CLAIMS_SHOWN)
        .map((c) => line('built', 'report', c, s)),
    );
    found.push(...s.found.map((f) => line('found', 'found', f, s)));
  }
  const aged = open.filter((o) => o.sessionAt === undefined || sessionsAfter(o.sessionAt) < AGE_SESSIONS);
  return [...aged, ...built, ...found];
}

/**
 * Whether the record says that what the person put as the state of things (`said`, at `since`, in
 * `sessions`) was since done: something built after it names it, or a report of the agent's that
 * the person did not dispute names it, or came after it in the same session (the trouble they
 * reported, then the agent's report of the fix as the session ended: "the export button does
 * nothing on Safari", then "Fixed: the download now starts from a user gesture").
 */
export function settles(state: ProjectState, lines: readonly StateLine[]): (said: string, since: string, sessions: readonly string[]) => boolean {
  const built = lines.filter((l) => l.kind === 'built');
  return (said, since, sessions) =>
    built.some((l) => (l.at ?? '') >= since && closes(l.text, said)) ||
    state.sessions.some((s) => s.claims.some((c) => (c.at ?? '') > since && (sessions.includes(s.sessionId) || closes(c.text, said))));
}
