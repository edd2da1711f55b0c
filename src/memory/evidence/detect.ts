/**
 * What a memory names in its repository, found only by what the repository holds: a path that
 * exists, a script of its package.json run by a package manager, a key of one of its config files
 * (its dotted path, an identifier-shaped name, or a name said with its value, as "port 8080"), a
 * dependency its manifests declare. No list of words: a name counts because the repository has it.
 */
import { isAbsolute, relative } from 'node:path';
import type { Evidence } from '../../api/memory-evidence.js';
import { analyze } from '../nlp/index.js';
import { depName, leafOf, type KeyEntry, type Snapshot } from './snapshot.js';

/** What detection finds: evidence before its blob and time are recorded. */
export type Found = Pick<Evidence, 'kind' | 'path' | 'key' | 'dependency' | 'value'>;

/** At most this many pieces of evidence per memory (the most specific first). */
export const EVIDENCE_MAX = 6;
/** A name with its value found in more config files than this is too common to say which one is meant. */
const AMBIGUOUS = 3;
/** Parts of speech a plain word has where it is not a name ("ignore the warnings", not "use commander"). */
const NOT_NAMING_POS = new Set(['VERB', 'AUX', 'ADV', 'ADP', 'DET', 'PRON', 'CCONJ', 'SCONJ', 'PART', 'INTJ']);

const trimToken = (t: string): string => t.replace(/^[("'`[<{]+/, '').replace(/[)"'`\]>},;:!?.]+$/, '');

function tokensOf(text: string): string[] {
  return text
    .replace(/\bhttps?:\/\/\S+/g, ' ')
    .split(/[\s,;]+/)
    .map(trimToken)
    .filter((t) => t !== '');
}

function pathsIn(tokens: string[], snap: Snapshot): Found[] {
  const out: Found[] = [];
  for (const raw of tokens) {
    let t = raw;
    if (isAbsolute(t)) {
      const rel = relative(snap.root, t);
      if (rel.startsWith('..') || isAbsolute(rel)) continue;
      t = rel;
    }
    t = t.replace(/^\.\//, '').replace(/\/+$/, '');
    if (t === '' || t === '.') continue;
    if (t.includes('/')) {
      if (snap.files.has(t)) out.push({ kind: 'file', path: t });
      else if (snap.dirs.has(t)) out.push({ kind: 'dir', path: t });
      continue;
    }
    // A bare file name: the root's, or the one file of that name anywhere.
    if (!/\.[A-Za-z][\w-]{0,9}$/.test(t) && !t.startsWith('.')) continue;
    const named = snap.files.has(t) ? [t] : (snap.byName.get(t) ?? []);
    if (named.length === 1) out.push({ kind: 'file', path: named[0] as string });
  }
  return out;
}

function scriptsIn(text: string, tokens: string[], snap: Snapshot): Found[] {
  if (snap.scripts.size === 0) return [];
  const names = new Set<string>();
  for (const m of text.matchAll(/\b(?:npm|pnpm|yarn|bun)\s+(?:run(?:-script)?\s+)?([\w:./-]+)/g)) names.add(trimToken(m[1] as string));
  // A script with a distinctive name ("test:e2e") counts wherever it is said.
  for (const t of tokens) if (/[:]/.test(t)) names.add(t);
  return [...names]
    .filter((n) => snap.scripts.has(n))
    .map((n) => ({ kind: 'script' as const, path: 'package.json', key: `scripts.${n}`, value: snap.scripts.get(n) as string }));
}

function depsIn(text: string, snap: Snapshot): Found[] {
  if (snap.deps.size === 0) return [];
  const out: Found[] = [];
  let sentences: ReturnType<typeof analyze> | undefined;
  const seen = new Set<string>();
  for (const m of text.matchAll(/@?[A-Za-z0-9][\w.-]*(?:\/[\w.-]+)?/g)) {
    const word = trimToken(m[0]);
    const dep = snap.deps.get(depName(word));
    if (dep === undefined || seen.has(dep.name)) continue;
    // A plain word is a dependency's name only where it is used as a name, or set as code.
    if (/^[a-z]+$/i.test(word) && !new RegExp(`\`${word}\``, 'i').test(text)) {
      sentences ??= analyze(text);
      // Capitalised inside a sentence ("built on Express") it is a name, whatever the tagger says.
      const tagged = sentences.flatMap((s) => s.tokens.map((tk, i) => ({ tk, i }))).filter(({ tk }) => tk.lower === word.toLowerCase());
      if (!tagged.some(({ tk, i }) => !NOT_NAMING_POS.has(tk.pos) || (i > 0 && /^[A-Z]/.test(tk.text)))) continue;
    }
    seen.add(dep.name);
    out.push({ kind: 'dependency', path: dep.path, dependency: dep.name, value: dep.version });
  }
  return out;
}

/** Words of an identifier ("listen_port", "maxRetries" → listen, port, max, retries). */
const wordsOfKey = (leaf: string): string[] =>
  leaf
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length >= 3);

const asFound = (e: KeyEntry): Found => ({
  kind: /port/i.test(leafOf(e.key)) && /^\d{2,5}$/.test(e.value) ? 'port' : 'key',
  path: e.path,
  key: e.key,
  value: e.value,
});

function keysIn(tokens: string[], snap: Snapshot): Found[] {
  const out: Found[] = [];
  const words = new Set(tokens.flatMap((t) => t.toLowerCase().split(/[^a-z0-9]+/)).flatMap((w) => [w, w.replace(/s$/, '')]));
  const take = (entries: KeyEntry[] | undefined) => {
    if (entries !== undefined && entries.length <= AMBIGUOUS) out.push(...entries.map(asFound));
  };
  for (const t of tokens) {
    // Its whole dotted path ("server.port", "compilerOptions.strict").
    if (t.includes('.')) take(snap.byKey.get(t));
    // An identifier only config has ("maxRetries", "DATABASE_URL", "listen_port").
    if (t.length >= 4 && /^[A-Za-z][\w-]*$/.test(t) && /_|[a-z][A-Z]/.test(t)) take(snap.byLeaf.get(t));
    // A value said with its key's name ("port 8080", "the region is eu-west-1").
    const byValue = snap.byValue.get(t.toLowerCase())?.filter((e) => wordsOfKey(leafOf(e.key)).some((w) => words.has(w)));
    take(byValue);
  }
  return out;
}

/** What `content` names in the snapshot's repository, most specific first, at most EVIDENCE_MAX. */
export function detect(content: string, snap: Snapshot): Found[] {
  const tokens = tokensOf(content);
  const specific = [...scriptsIn(content, tokens, snap), ...keysIn(tokens, snap), ...depsIn(content, snap)];
  // A file named beside a key, script or dependency of it is where that lives, not a claim about the whole file.
  const within = new Set(specific.map((f) => f.path));
  const files = pathsIn(tokens, snap).filter((f) => f.kind === 'dir' || !within.has(f.path));
  const out: Found[] = [];
  const seen = new Set<string>();
  for (const f of [...specific, ...files]) {
    const id = `${f.kind}\0${f.path}\0${f.key ?? ''}\0${f.dependency ?? ''}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push(f);
  }
  return out.slice(0, EVIDENCE_MAX);
}
