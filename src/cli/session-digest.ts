/** `nightshift sessions show`: a session's record and its whole digest, as text. */
import type { SessionDigest } from '../api/digest.js';
import type { SessionRecord, SessionShowResponse } from '../api/memory.js';

const when = (at: string | undefined) => (at ? at.slice(0, 16).replace('T', ' ') : '-');

function record(s: SessionRecord): string[] {
  return [
    `session:    ${s.sessionId}${s.agentId ? ` (sidechain ${s.agentId})` : ''}`,
    `project:    ${s.project ?? '-'}`,
    `transcript: ${s.path} (${s.format ?? '?'}, ${s.state}${s.error ? `: ${s.error}` : ''})`,
    `time:       ${when(s.firstMessageAt)} → ${when(s.lastMessageAt)}`,
    `messages:   ${s.messages}, memories added ${s.memories}`,
  ];
}

function digest(d: SessionDigest): string[] {
  const out: string[] = [];
  const section = (title: string, lines: string[]) => {
    if (lines.length === 0) return;
    out.push('', `${title}:`, ...lines.map((l) => `  ${l}`));
  };
  section(
    'asked',
    d.asked.map((a) => `${a.text}  [${a.messageId}]`),
  );
  section(
    'files changed',
    d.files.map((f) => `${f.path}${f.edits > 1 ? ` (${f.edits} edits)` : ''}`),
  );
  section(
    'commands',
    d.commands.map(
      (c) =>
        `${c.command}: ${c.runs} run${c.runs === 1 ? '' : 's'}, ${c.failures} failed, last ${c.ok ? 'passed' : `failed${c.exitCode !== undefined ? ` (exit ${c.exitCode})` : ''}`}  [${c.messageIds.at(-1) ?? ''}]`,
    ),
  );
  section(
    'declined (calls the person turned down: not runs)',
    (d.declined ?? []).map((c) => `${c.command}${c.count > 1 ? ` (×${c.count})` : ''}  [${c.messageId}]`),
  );
  section(
    'errors',
    d.errors.map(
      (e) => `${e.command}: ${e.text}${e.count > 1 ? ` (×${e.count})` : ''} — ${e.fixed ? `fixed [${e.fixedBy ?? ''}]` : 'not fixed'}  [${e.messageId}]`,
    ),
  );
  section(
    'commits',
    d.commits.map((c) => `${c.message ?? '(no message)'}  [${c.messageId}]`),
  );
  section(
    'pushes',
    d.pushes.map((p) => `${p.command}  [${p.messageId}]`),
  );
  section('outcome', d.outcome.length > 0 ? [d.outcome.join(', ')] : []);
  section(
    'left open',
    d.open.map(
      (o) =>
        `${o.source === 'question' ? 'unanswered: ' : o.source === 'plan' ? 'plan awaiting approval: ' : 'pending at the last compaction: '}${o.text}  [${o.messageId}]`,
    ),
  );
  return out;
}

export function describeSession(r: SessionShowResponse): string {
  const lines = record(r.session);
  if (r.digest) lines.push(...digest(r.digest));
  else lines.push('', 'no digest yet (ingest the session again to build one)');
  for (const s of r.sidechains) {
    lines.push('', `── sidechain ${s.session.agentId ?? s.session.key} (${s.session.path})`);
    if (s.digest) lines.push(...digest(s.digest).map((l) => (l === '' ? l : `  ${l}`)));
  }
  return `${lines.join('\n')}\n`;
}
