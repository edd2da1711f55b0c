/**
 * A session's state record, built from its messages as they stream by (the same messages the
 * digest reads, with the digest's own readers of shell commands and compaction summaries), and
 * continued by an incremental ingest from the record of the ingest before.
 */
import { pendingTasks } from '../digest/build.js';
import { commitMessage, notableCommand } from '../digest/commands.js';
import { simpleCommands } from '../digest/shell.js';
import { redact } from '../../redact/redact.js';
import type { TranscriptMessage } from '../transcripts/types.js';
import { correcting, notesUnanswered, planGistText } from '../candidates/index.js';
import { disputes, reportClaims, reportPending, saysNothingLeft } from './report.js';
import { askedChange } from './asked.js';
import { causeAndFix } from './found.js';
import type { SessionState, StateEntry } from './schema.js';

const TEXT_MAX = 200;
const CLAIMS_MAX = 30;
const COMMITS_MAX = 50;
const FOUND_MAX = 3;
const REQUESTS_MAX = 30;
const FILLED_MAX = 20;

/** `[main a1b2c3d] message`, `[main (root-commit) a1b2c3d] message`. */
const COMMIT_LINE = /^\[[^\]\s]+(?: \([^)]*\))? ([0-9a-f]{7,40})\]/m;
const CHECK_KINDS = new Set(['test', 'build', 'lint']);

/** Clipped as read; secrets are masked once, in `result` (masking every claim and list as it streams by costs more than the rest). */
function clip(text: string, max = TEXT_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

const masked = <T extends StateEntry>(e: T): T => ({ ...e, text: redact(e.text).text });

function entry(text: string, m: TranscriptMessage): StateEntry {
  return { text: clip(text), messageId: m.id, ...(m.timestamp !== undefined && { at: m.timestamp }) };
}

/** What a successful `git revert` / `git reset --hard` undid: a hash, `HEAD~n`, or nothing that names a commit. */
export function undoneBy(command: string): { revert?: string; resetTo?: string } | undefined {
  for (const c of simpleCommands(command)) {
    let i = c.words[0] === 'git' ? 1 : -1;
    if (i < 0) continue;
    while (c.words[i] === '-C' || c.words[i] === '-c') i += 2;
    const verb = c.words[i];
    const args = c.words.slice(i + 1).filter((w) => !w.startsWith('-'));
    if (verb === 'revert' && !c.words.includes('--abort')) return { revert: args[0] ?? 'HEAD' };
    if (verb === 'reset' && c.words.includes('--hard') && args[0] !== undefined) return { resetTo: args[0] };
  }
  return undefined;
}

export class StateBuilder {
  /** Claims and findings made since the person last spoke: a reply that disputes them drops them. */
  private recentClaims = 0;
  private recentFound = 0;
  /** A cause and fix waiting for a check to pass. */
  private unverified: StateEntry[] = [];
  /**
   * The person's latest message, until a file is written for it (then what it asked is a change
   * made) or the person speaks again; what it asks is read only once a write follows it (`null`: nothing).
   */
  private said: { m?: TranscriptMessage; asked?: StateEntry | null } | undefined;
  /** Write calls for the request whose results are not read yet: a declined or failed write changed nothing. */
  private writes = new Set<string>();
  /** A change recorded since the person last spoke: a reply that disputes it drops it. */
  private recentRequest = false;
  /** Placeholder lines a write takes out, by call, until its result says it went through. */
  private filling = new Map<string, string[]>();

  constructor(private readonly s: SessionState) {
    // Where the ingest before stopped: a request typed before it and written for after it is a change made.
    const carry = s.carry;
    if (carry !== undefined) {
      if (carry.asked !== undefined) this.said = { asked: carry.asked };
      this.writes = new Set(carry.writes);
      this.recentRequest = carry.recentRequest;
      this.filling = new Map(carry.filling.map((f) => [f.call, f.lines]));
    }
    delete s.carry;
  }

  /** The record as it is stored: every text with its secrets masked. */
  result(): SessionState {
    const s = this.s;
    const asked = this.said === undefined ? undefined : this.asked();
    const carry =
      asked === undefined && this.writes.size === 0 && !this.recentRequest && this.filling.size === 0
        ? undefined
        : {
            ...(asked !== undefined && { asked: asked === null ? null : masked(asked) }),
            writes: [...this.writes],
            recentRequest: this.recentRequest,
            filling: [...this.filling].map(([call, lines]) => ({ call, lines: lines.map((l) => redact(l).text) })),
          };
    return {
      ...s,
      ...(carry !== undefined && { carry }),
      commits: s.commits.map(masked),
      plans: s.plans.map(masked),
      todos: s.todos.map(masked),
      summary: s.summary.map(masked),
      requests: s.requests.map(masked),
      reportPending: s.reportPending.map(masked),
      claims: s.claims.map(masked),
      filled: s.filled.map(masked),
      found: s.found.map(masked),
    };
  }

  add(m: TranscriptMessage): void {
    if (m.sidechain === true) return;
    if (m.timestamp !== undefined) {
      if (this.s.firstAt === undefined || m.timestamp < this.s.firstAt) this.s.firstAt = m.timestamp;
      if (this.s.lastAt === undefined || m.timestamp > this.s.lastAt) this.s.lastAt = m.timestamp;
    }
    if (m.origin === 'typed' || m.origin === 'queued') this.person(m);
    else if (m.origin === 'plan') this.plan(m);
    else if (m.origin === 'summary' && m.compactSummary === true)
      this.s.summary = pendingTasks(m.text)
        // "No explicitly pending tasks. All 7 tasks completed.": the section says nothing is open.
        // "Open question: remove the NAT gateways (not yet answered)": the agent's question, nobody's work.
        .filter((t) => !saysNothingLeft(t) && !notesUnanswered(t))
        .map((t) => entry(t, m));
    else if (m.origin === 'assistant' && m.kind === 'text') this.report(m);
    else if (m.kind === 'tool_use') this.toolUse(m);
    else if (m.kind === 'tool_result') this.toolResult(m);
  }

  private person(m: TranscriptMessage): void {
    const disputed = disputes(m.text);
    if (disputed) {
      if (this.recentClaims > 0) this.s.claims.splice(this.s.claims.length - this.recentClaims);
      if (this.recentFound > 0) this.s.found.splice(this.s.found.length - this.recentFound);
      this.unverified = [];
    }
    // "Actually no, plain sh": the change just made is not what stands.
    if (this.recentRequest && (disputed || correcting(m.text))) this.s.requests.pop();
    this.writes.clear();
    this.filling.clear();
    this.recentClaims = 0;
    this.recentFound = 0;
    this.recentRequest = false;
    this.said = { m };
  }

  private plan(m: TranscriptMessage): void {
    if (m.plan !== 'approved') return;
    // Its title and gist, as the decision memory of the plan says them: the record's line then says
    // that memory, and recall gives the plan once.
    const first = m.text.split('\n').find((l) => l.replace(/[#*\s]/g, '') !== '') ?? m.text;
    this.s.plans.push({ ...entry(planGistText(m.text) ?? first.replace(/^[#\s]+/, ''), m), carried: false });
  }

  private report(m: TranscriptMessage): void {
    const pending = reportPending(m.text);
    if (pending.length > 0) this.s.reportPending = pending.map((t) => entry(t, m));
    if (saysNothingLeft(m.text)) {
      this.s.cleared = true;
      this.s.reportPending = [];
    } else if (pending.length > 0) delete this.s.cleared;
    const claims = reportClaims(m.text).map((t) => entry(t, m));
    this.s.claims.push(...claims);
    this.recentClaims += claims.length;
    if (this.s.claims.length > CLAIMS_MAX) this.s.claims.splice(0, this.s.claims.length - CLAIMS_MAX);
    this.recentClaims = Math.min(this.recentClaims, this.s.claims.length);
    const found = causeAndFix(m.text);
    if (found !== undefined) this.unverified = [entry(found, m)];
  }

  private toolUse(m: TranscriptMessage): void {
    if (m.todos !== undefined) {
      this.s.todos = m.todos.map((t) => ({ ...entry(t.content, m), status: t.status }));
      // A task list set after a compaction summary or a report is the newer word on what is left.
      this.s.summary = [];
      this.s.reportPending = [];
    }
    if (m.paths === undefined) return;
    if (m.filled !== undefined && m.toolUseId !== undefined) this.filling.set(m.toolUseId, m.filled);
    this.carried();
    if (m.toolUseId !== undefined && this.asked() !== null) this.writes.add(m.toolUseId);
  }

  /** What the person's latest message asked for, read once; null when nothing (or nobody spoke). */
  private asked(): StateEntry | null {
    const said = this.said;
    if (said === undefined) return null;
    if (said.asked === undefined) {
      const text = said.m === undefined ? undefined : askedChange(said.m.text);
      said.asked = text === undefined || said.m === undefined ? null : entry(text, said.m);
    }
    return said.asked;
  }

  /** A write for the person's request went through: the request is a change made. */
  private written(m: TranscriptMessage): void {
    const asked = this.asked();
    if (m.toolUseId === undefined || !this.writes.delete(m.toolUseId) || m.isError === true || asked === null) return;
    // The same request read twice (a resumed transcript holds its conversation again) is one change.
    if (!this.s.requests.some((r) => r.text === asked.text)) this.s.requests.push(asked);
    if (this.s.requests.length > REQUESTS_MAX) this.s.requests.shift();
    this.recentRequest = true;
    this.said = undefined;
  }

  private carried(): void {
    for (const p of this.s.plans) p.carried = true;
  }

  /** A write that filled in a placeholder went through: what was left open about it is done (resolve.ts). */
  private filled(m: TranscriptMessage): void {
    const id = m.toolUseId;
    const lines = id === undefined ? undefined : this.filling.get(id);
    if (id === undefined || lines === undefined) return;
    this.filling.delete(id);
    if (m.isError === true) return;
    this.s.filled.push(...lines.map((l) => entry(l, m)));
    if (this.s.filled.length > FILLED_MAX) this.s.filled.splice(0, this.s.filled.length - FILLED_MAX);
  }

  private toolResult(m: TranscriptMessage): void {
    if (this.filling.size > 0) this.filled(m);
    if (this.writes.size > 0) this.written(m);
    if (m.command === undefined || m.exitCode !== 0) return;
    // Most commands are neither a check nor git: not worth reading as a command line.
    if (this.unverified.length === 0 && !/\bgit\b/.test(m.command)) return;
    const notable = notableCommand(m.command);
    if (notable?.kind === 'commit') {
      const hash = COMMIT_LINE.exec(m.text)?.[1];
      const message = commitMessage(m.command) ?? /^\[[^\]]+\]\s*(.+)$/m.exec(m.text)?.[1];
      if (message !== undefined && hash !== undefined && this.s.commits.length < COMMITS_MAX) {
        this.s.commits.push({ ...entry(message, m), hash: hash.slice(0, 7) });
        this.carried();
      }
      return;
    }
    if (notable !== undefined && CHECK_KINDS.has(notable.kind) && !notable.masked && this.unverified.length > 0) {
      this.s.found.push(...this.unverified);
      this.recentFound += this.unverified.length;
      if (this.s.found.length > FOUND_MAX) this.s.found.splice(0, this.s.found.length - FOUND_MAX);
      this.recentFound = Math.min(this.recentFound, this.s.found.length);
      this.unverified = [];
      return;
    }
    const undone = /\b(?:revert|reset)\b/.test(m.command) ? undoneBy(m.command) : undefined;
    if (undone !== undefined) this.undo(undone);
  }

  private undo(u: { revert?: string; resetTo?: string }): void {
    const standing = this.s.commits.filter((c) => c.reverted !== true);
    const at = (ref: string): number => {
      const back = /^HEAD(?:~(\d+)|(\^+))?$/.exec(ref);
      if (back !== null) return standing.length - 1 - (back[1] !== undefined ? Number(back[1]) : (back[2]?.length ?? 0));
      return standing.findIndex((c) => c.hash !== undefined && (c.hash.startsWith(ref) || ref.startsWith(c.hash)));
    };
    if (u.revert !== undefined) {
      const i = at(u.revert);
      const c = standing[i];
      if (c !== undefined) c.reverted = true;
      return;
    }
    if (u.resetTo === undefined) return;
    const i = at(u.resetTo);
    // A reset to a commit this session does not know (before it, or a branch) undoes them all.
    const from = i < 0 && !/^HEAD/.test(u.resetTo) ? 0 : i + 1;
    for (const c of standing.slice(Math.max(0, from))) c.reverted = true;
  }
}
