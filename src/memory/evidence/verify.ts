/**
 * Evidence against the repository as it is now. The file's blob id decides first (unchanged: the
 * key, script or dependency in it is too); a file that changed is parsed once, however many
 * memories rest on it. A memory whose file, key, script or dependency is gone is `gone`; one whose
 * file or value changed is `changed`; with the reasons a person reads.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Evidence } from '../../api/memory-evidence.js';
import { factsOf, type Facts } from './facts.js';
import { blobsOf, isDir } from './repo.js';
import { depName } from './snapshot.js';

export type Verdict = { kind: 'same' } | { kind: 'changed'; reason: string } | { kind: 'gone'; reason: string; gone: number[] };

/** The files some evidence lives in, as they are now: blob ids from one git process, parsed on demand. */
export interface RepoNow {
  root: string;
  blobs: Map<string, string>;
  facts(path: string): Facts;
}

export async function repoNow(root: string, evidence: Iterable<Evidence>): Promise<RepoNow> {
  const paths = new Set<string>();
  for (const e of evidence) if (e.kind !== 'dir' && e.gone !== true) paths.add(e.path);
  const blobs = await blobsOf(root, paths);
  const parsed = new Map<string, Facts>();
  return {
    root,
    blobs,
    facts(path) {
      let f = parsed.get(path);
      if (f === undefined) {
        let text = '';
        try {
          text = readFileSync(join(root, path), 'utf8');
        } catch {
          // gone since the blob was taken: it has no keys
        }
        f = factsOf(path, text);
        parsed.set(path, f);
      }
      return f;
    },
  };
}

function depVersion(facts: Facts, name: string): string | undefined {
  const exact = facts.deps.get(name);
  if (exact !== undefined) return exact;
  for (const [n, v] of facts.deps) if (depName(n) === depName(name)) return v;
  return undefined;
}

const what = (e: Evidence): string =>
  e.kind === 'script'
    ? `script "${(e.key ?? '').replace(/^scripts\./, '')}"`
    : e.kind === 'dependency'
      ? `dependency ${e.dependency ?? '?'}`
      : `${e.key ?? '?'}`;

/** One piece of evidence now: undefined when it still holds, else whether it is gone or changed and why. */
function check(e: Evidence, now: RepoNow): { gone: boolean; reason: string } | undefined {
  if (e.kind === 'dir') return isDir(now.root, e.path) ? undefined : { gone: true, reason: `${e.path}/ no longer exists` };
  const blob = now.blobs.get(e.path);
  if (blob === undefined) return { gone: true, reason: `${e.path} no longer exists` };
  if (e.blob !== undefined && blob === e.blob) return undefined;
  if (e.kind === 'file') return e.blob === undefined ? undefined : { gone: false, reason: `${e.path} changed since it was said` };
  const facts = now.facts(e.path);
  const value = e.kind === 'dependency' ? depVersion(facts, e.dependency ?? '') : facts.keys.get(e.key ?? '');
  if (value === undefined) return { gone: true, reason: `${what(e)} is no longer in ${e.path}` };
  if (e.value !== undefined && value !== e.value) return { gone: false, reason: `${what(e)} in ${e.path} changed: ${e.value} → ${value}` };
  return undefined;
}

/** A memory's evidence now: gone if any of it is (those are `gone`, by index), else changed if any changed. */
export function verdictOf(evidence: readonly Evidence[], now: RepoNow): Verdict {
  const gone: { i: number; reason: string }[] = [];
  const changed: string[] = [];
  evidence.forEach((e, i) => {
    if (e.gone === true) return;
    const r = check(e, now);
    if (r === undefined) return;
    if (r.gone) gone.push({ i, reason: r.reason });
    else changed.push(r.reason);
  });
  if (gone.length > 0) return { kind: 'gone', reason: gone.map((g) => g.reason).join('; '), gone: gone.map((g) => g.i) };
  if (changed.length > 0) return { kind: 'changed', reason: changed.join('; ') };
  return { kind: 'same' };
}
