/**
 * A digest as one recall line: when, which files changed, which checks ran and how they ended,
 * commits and pushes. Never the person's words or error text: those were true of that moment and
 * go stale; `nightshift sessions show` has the whole digest.
 */
import type { SessionDigest } from '../../api/digest.js';

const NAMES_SHOWN = 3;
const CHECKS_SHOWN = 3;
const CHECK_KINDS = new Set(['test', 'build', 'lint', 'deploy', 'pr']);

/** A session's digest with its sidechains' work (files, commands, commits, pushes) folded in. */
export function combine(main: SessionDigest, sidechains: SessionDigest[]): SessionDigest {
  if (sidechains.length === 0) return main;
  const d: SessionDigest = structuredClone(main);
  for (const s of sidechains) {
    for (const f of s.files) {
      const have = d.files.find((x) => x.path === f.path);
      if (have) have.edits += f.edits;
      else d.files.push({ ...f });
    }
    for (const c of s.commands) {
      const have = d.commands.find((x) => x.command === c.command);
      if (!have) d.commands.push({ ...c });
      else {
        have.runs += c.runs;
        have.failures += c.failures;
        if ((c.at ?? '') > (have.at ?? '')) Object.assign(have, { ok: c.ok, at: c.at });
      }
    }
    d.commits.push(...s.commits);
    d.pushes.push(...s.pushes);
    d.errors.push(...s.errors);
  }
  return d;
}

const basename = (path: string) => path.split(/[\\/]/).filter(Boolean).pop() ?? path;

/**
 * How a check ended: passed only when its last run passed, with the failed runs counted
 * (`npm test passed (3 runs, 2 failed)`, `npm test failed (2 runs, both failed)`).
 */
export function checkText(c: SessionDigest['commands'][number]): string {
  const failed = c.failures === 0 ? '' : `, ${c.failures < c.runs ? c.failures : c.runs === 2 ? 'both' : 'all'} failed`;
  return `${c.command} ${c.ok === true ? 'passed' : 'failed'}${c.runs > 1 ? ` (${c.runs} runs${failed})` : ''}`;
}

/** The recall line of a digest, or undefined when the session changed and ran nothing worth a line. */
export function digestLine(d: SessionDigest): string | undefined {
  const parts: string[] = [];
  const names = [...new Set(d.files.map((f) => basename(f.path)))];
  if (names.length > 0) {
    const more = names.length > NAMES_SHOWN ? ` +${names.length - NAMES_SHOWN} more` : '';
    parts.push(`changed ${names.slice(0, NAMES_SHOWN).join(', ')}${more}`);
  }
  const checks = d.commands
    .filter((c) => CHECK_KINDS.has(c.kind) && c.ok !== undefined)
    .sort((a, b) => (b.at ?? '').localeCompare(a.at ?? ''))
    .slice(0, CHECKS_SHOWN)
    .map(checkText);
  if (checks.length > 0) parts.push(`ran ${checks.join(', ')}`);
  const vcs: string[] = [];
  if (d.commits.length > 0) vcs.push(d.commits.length === 1 ? '1 commit' : `${d.commits.length} commits`);
  if (d.pushes.length > 0) vcs.push('pushed');
  if (vcs.length > 0) parts.push(vcs.join(', '));
  if (parts.length === 0) return undefined;
  const date = (d.lastAt ?? d.firstAt ?? d.updatedAt).slice(0, 10);
  return `${date}: ${parts.join('; ')}`;
}

/** Provenance of a digest line: the messages its parts come from (a few). */
export function digestSources(d: SessionDigest): string[] {
  const ids = [
    ...d.files.flatMap((f) => f.messageIds.slice(-1)),
    ...d.commands.flatMap((c) => c.messageIds.slice(-1)),
    ...d.commits.map((c) => c.messageId),
    ...d.pushes.map((p) => p.messageId),
  ];
  return [...new Set(ids)].slice(0, 8);
}
