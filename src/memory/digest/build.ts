/**
 * Builds a session's digest from its messages as they stream by: what was asked, which files
 * changed, which commands ran and how they ended, errors and whether they were fixed, and what was
 * left open. A digest from an earlier ingest is continued, so an incremental ingest only reads what
 * was appended.
 */
import type { SessionDigest } from '../../api/digest.js';
import { redact } from '../../redact/redact.js';
import { closingQuestion } from '../nlp/text.js';
import type { TranscriptMessage } from '../transcripts/types.js';
import { commitMessage, errorLine, notableCommand, reportsFailure } from './commands.js';

const ASKED_MAX = 3;
const TEXT_MAX = 200;
const FILES_MAX = 200;
const COMMANDS_MAX = 40;
const DECLINED_MAX = 20;
const ERRORS_MAX = 10;
const COMMITS_MAX = 50;
const IDS_MAX = 5;

/** Messages arrive masked (ingest/masked-messages.ts); tool output is not, and is masked where a line of it is kept. */
function clip(text: string, max = TEXT_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function keepLast(ids: string[], id: string): void {
  if (ids.includes(id)) return;
  ids.push(id);
  if (ids.length > IDS_MAX) ids.shift();
}

export function emptyDigest(init: Pick<SessionDigest, 'key' | 'sessionId' | 'project'> & { agentId?: string | undefined }): SessionDigest {
  return {
    version: 1,
    key: init.key,
    sessionId: init.sessionId,
    ...(init.agentId !== undefined && { agentId: init.agentId }),
    project: init.project,
    messages: 0,
    asked: [],
    files: [],
    commands: [],
    declined: [],
    errors: [],
    commits: [],
    pushes: [],
    pendingTasks: [],
    interrupted: false,
    outcome: [],
    open: [],
    updatedAt: new Date(0).toISOString(),
  };
}

/** The bullet items of the "Pending Tasks" section of a compaction summary. */
export function pendingTasks(summary: string): string[] {
  const section =
    /(?:^|\n)[ \t]*(?:#+[ \t]*)?(?:\d+\.[ \t]*)?\**Pending Tasks\**:?\**[ \t]*\n([\s\S]*?)(?=\n[ \t]*(?:#+[ \t]*)?(?:\d+\.[ \t]*)?\**[A-Z][\w ]{2,40}\**:?\**[ \t]*\n|\n[ \t]*<\/summary>|$)/i.exec(
      summary,
    )?.[1];
  if (section === undefined) return [];
  const items = section
    .split('\n')
    .map((l) => /^\s*(?:[-*•]|\d+[.)])\s+(.+)$/.exec(l)?.[1]?.trim())
    .filter((t): t is string => t !== undefined && t !== '');
  const all = items.length > 0 ? items : [section.trim()].filter((t) => t !== '');
  return all.filter((t) => !/^(?:none\b|n\/a\b|no pending|nothing)/i.test(t.replace(/^\W+/, '')));
}

const PERSON = new Set<TranscriptMessage['origin']>(['typed', 'queued', 'answer', 'feedback', 'command']);

export class DigestBuilder {
  /** Edits whose result is not in yet, by call id: a failed or rejected edit changed nothing. */
  private readonly edits = new Map<string, string[]>();

  constructor(private readonly d: SessionDigest) {}

  add(m: TranscriptMessage): void {
    this.d.messages++;
    if (m.timestamp !== undefined) {
      if (this.d.firstAt === undefined || m.timestamp < this.d.firstAt) this.d.firstAt = m.timestamp;
      if (this.d.lastAt === undefined || m.timestamp > this.d.lastAt) this.d.lastAt = m.timestamp;
    }
    // A rejected edit's result is the person's feedback, not a tool result: either way it changed nothing.
    if (m.kind !== 'tool_use' && m.toolUseId !== undefined) this.settleEdit(m);
    // Declined with a reason, the call's result is the person's feedback: the call is declined either way.
    if (m.rejected === true) this.declined(m);
    if (PERSON.has(m.origin)) this.person(m);
    else if (m.origin === 'interrupt') this.d.interrupted = true;
    else if (m.origin === 'plan') this.plan(m);
    else if (m.origin === 'summary' && m.compactSummary === true) this.summary(m);
    else if (m.origin === 'assistant' && m.kind === 'text' && m.sidechain !== true) this.assistant(m);
    else if (m.kind === 'tool_use') this.toolUse(m);
    else if (m.kind === 'tool_result') this.toolResult(m);
  }

  private person(m: TranscriptMessage): void {
    this.d.interrupted = false;
    delete this.d.question;
    if ((m.origin === 'typed' || m.origin === 'queued') && this.d.asked.length < ASKED_MAX) {
      this.d.asked.push({ text: clip(m.text), messageId: m.id, ...(m.timestamp !== undefined && { at: m.timestamp }) });
    }
  }

  private plan(m: TranscriptMessage): void {
    if (m.plan === 'pending') this.d.plan = { text: clip(m.text.split('\n').find((l) => l.trim() !== '') ?? m.text), messageId: m.id };
    else delete this.d.plan;
  }

  private summary(m: TranscriptMessage): void {
    this.d.pendingTasks = pendingTasks(m.text).map((t) => ({ text: clip(t), messageId: m.id, ...(m.timestamp !== undefined && { at: m.timestamp }) }));
  }

  private assistant(m: TranscriptMessage): void {
    const q = closingQuestion(m.text);
    if (q === undefined) delete this.d.question;
    else this.d.question = { text: clip(q), messageId: m.id, ...(m.timestamp !== undefined && { at: m.timestamp }) };
  }

  private toolUse(m: TranscriptMessage): void {
    if (m.paths === undefined) return;
    if (m.toolUseId !== undefined) this.edits.set(m.toolUseId, m.paths);
    this.files(m.paths, 1, m.id);
  }

  private files(paths: string[], delta: number, id: string): void {
    for (const path of paths) {
      let f = this.d.files.find((x) => x.path === path);
      if (f === undefined && delta > 0 && this.d.files.length < FILES_MAX) {
        f = { path, edits: 0, messageIds: [] };
        this.d.files.push(f);
      }
      if (f === undefined) continue;
      f.edits += delta;
      if (delta > 0) keepLast(f.messageIds, id);
      if (f.edits <= 0) this.d.files.splice(this.d.files.indexOf(f), 1);
    }
  }

  private settleEdit(m: TranscriptMessage): void {
    const edited = m.toolUseId === undefined ? undefined : this.edits.get(m.toolUseId);
    if (edited === undefined || m.toolUseId === undefined) return;
    this.edits.delete(m.toolUseId);
    if (m.isError === true) this.files(edited, -1, m.id);
  }

  /** A check, commit, push… the person said no to: listed apart, never a run. */
  private declined(m: TranscriptMessage): void {
    const notable = m.command === undefined ? undefined : notableCommand(m.command);
    if (notable === undefined) return;
    const declined = (this.d.declined ??= []);
    let e = declined.find((x) => x.command === notable.command);
    if (e === undefined) {
      if (declined.length >= DECLINED_MAX) return;
      e = { command: notable.command, kind: notable.kind, count: 0, messageId: m.id };
      declined.push(e);
    }
    e.count++;
    e.messageId = m.id;
    if (m.timestamp !== undefined) e.at = m.timestamp;
  }

  /** How a run ended, from its own exit status; undefined while it has none (still running, declined). */
  private outcome(m: TranscriptMessage, masked: boolean): boolean | undefined {
    if (m.rejected === true) return undefined;
    const ok = m.exitCode !== undefined ? m.exitCode === 0 : m.isError === true ? false : undefined;
    // `npm test 2>&1 | tail -5` exits with tail's status: the runner's own report tells how it ended.
    return ok === true && masked && reportsFailure(m.text) ? false : ok;
  }

  private toolResult(m: TranscriptMessage): void {
    if (m.command === undefined) return;
    const notable = notableCommand(m.command);
    if (notable === undefined) return;
    const ok = this.outcome(m, notable.masked);
    if (ok === undefined) return; // still running (its outcome comes later, if at all) or declined
    const at = m.timestamp;
    let c = this.d.commands.find((x) => x.command === notable.command);
    if (c === undefined && this.d.commands.length < COMMANDS_MAX) {
      c = { command: notable.command, kind: notable.kind, runs: 0, failures: 0, messageIds: [] };
      this.d.commands.push(c);
    }
    if (c !== undefined) {
      c.runs++;
      if (!ok) c.failures++;
      c.ok = ok;
      // A masked run's exit status is the pipe's or the next command's, not its own.
      if (m.exitCode !== undefined && !notable.masked) c.exitCode = m.exitCode;
      else delete c.exitCode;
      keepLast(c.messageIds, m.id);
      if (at !== undefined) c.at = at;
    }
    if (ok) {
      if (notable.kind === 'commit' && this.d.commits.length < COMMITS_MAX) {
        const message = commitMessage(m.command);
        this.d.commits.push({ ...(message !== undefined && { message: clip(message, 120) }), messageId: m.id, ...(at !== undefined && { at }) });
      }
      if (notable.kind === 'push') this.d.pushes.push({ command: notable.command, messageId: m.id, ...(at !== undefined && { at }) });
      // A passing run of the same kind fixes earlier failures: `git push -u origin x` fixes a failed `git push`.
      const kindOf = (command: string) => this.d.commands.find((x) => x.command === command)?.kind;
      for (const e of this.d.errors) {
        if (e.fixed || (e.command !== notable.command && kindOf(e.command) !== notable.kind)) continue;
        e.fixed = true;
        e.fixedBy = m.id;
      }
      return;
    }
    const open = this.d.errors.find((e) => !e.fixed && e.command === notable.command);
    if (open !== undefined) open.count++;
    else if (this.d.errors.length < ERRORS_MAX) {
      this.d.errors.push({
        command: notable.command,
        text: clip(redact(errorLine(m.text)).text, 160),
        count: 1,
        messageId: m.id,
        ...(at !== undefined && { at }),
        fixed: false,
      });
    }
  }

  /**
   * Paths under the project are shown relative to it (the same file reached both ways is one entry);
   * others are masked like any text (`/home/NAME/…` holds the person's account name).
   */
  private relativize(root: string | null): void {
    const files: SessionDigest['files'] = [];
    for (const f of this.d.files) {
      const under = root !== null && (f.path.startsWith(`${root}/`) || f.path.startsWith(`${root}\\`));
      const path = under ? f.path.slice(root.length + 1) : redact(f.path).text;
      const have = files.find((x) => x.path === path);
      if (have === undefined) files.push({ ...f, path });
      else {
        have.edits += f.edits;
        for (const id of f.messageIds) keepLast(have.messageIds, id);
      }
    }
    this.d.files = files;
  }

  /** The digest with its outcome and open items worked out. */
  result(nowIso: string, root: string | null): SessionDigest {
    const d = this.d;
    this.relativize(root);
    const last = (kind: string) =>
      [...d.commands]
        .filter((c) => c.kind === kind && c.ok !== undefined)
        .sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''))
        .pop();
    const outcome: string[] = [];
    const tests = last('test');
    if (tests) outcome.push(tests.ok ? 'tests passing' : 'tests failing');
    for (const kind of ['build', 'lint'] as const) if (last(kind)?.ok === false) outcome.push(`${kind} failing`);
    if (d.commits.length > 0) outcome.push(d.commits.length === 1 ? 'committed' : `${d.commits.length} commits`);
    if (d.pushes.length > 0) outcome.push('pushed');
    if (last('pr')?.ok === true) outcome.push('pull request');
    if (last('deploy')?.ok === true) outcome.push('deployed');
    const unfixed = d.errors.filter((e) => !e.fixed).length;
    if (unfixed > 0) outcome.push(unfixed === 1 ? '1 error unresolved' : `${unfixed} errors unresolved`);
    if (d.interrupted) outcome.push('interrupted');
    d.outcome = outcome;
    d.open = [
      ...d.pendingTasks.map((t) => ({ text: t.text, source: 'pending-tasks' as const, messageId: t.messageId })),
      ...(d.question ? [{ text: d.question.text, source: 'question' as const, messageId: d.question.messageId }] : []),
      ...(d.plan ? [{ text: d.plan.text, source: 'plan' as const, messageId: d.plan.messageId }] : []),
    ];
    d.updatedAt = nowIso;
    return d;
  }
}
