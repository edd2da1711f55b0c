/**
 * What a project's repository holds now, indexed for finding what a memory names: its files and
 * directories, and the keys, scripts and dependencies of its config files and manifests (read
 * once per snapshot, the small ones near the root only).
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, join, posix } from 'node:path';
import { factsOf, isFactFile, type Facts } from './facts.js';
import { listFiles } from './repo.js';

/** Config files deeper than this (directories below the root) are not read. */
const FACT_DEPTH = 3;
const FACT_FILES_MAX = 200;
const FACT_BYTES_MAX = 256 * 1024;
const GENERATED = /(?:^|\/)(?:node_modules|dist|build|target|vendor|coverage|\.git|\.next|\.venv)\//;

export interface KeyEntry {
  path: string;
  key: string;
  value: string;
}

export interface Snapshot {
  root: string;
  git: boolean;
  files: Set<string>;
  dirs: Set<string>;
  byName: Map<string, string[]>;
  facts: Map<string, Facts>;
  /** The root package.json's scripts: name → command. */
  scripts: Map<string, string>;
  /** Dependencies by lower-cased name (`_` as `-`), from the shallowest manifest that declares them. */
  deps: Map<string, { name: string; version: string; path: string }>;
  /** Config keys by their whole dotted path, by their last segment, and by their value (lower-cased). */
  byKey: Map<string, KeyEntry[]>;
  byLeaf: Map<string, KeyEntry[]>;
  byValue: Map<string, KeyEntry[]>;
}

export const depName = (name: string): string => name.toLowerCase().replace(/_/g, '-');
export const leafOf = (key: string): string => key.slice(key.lastIndexOf('.') + 1);

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function readFacts(root: string, path: string): Facts | undefined {
  try {
    const full = join(root, path);
    if (statSync(full).size > FACT_BYTES_MAX) return undefined;
    return factsOf(path, readFileSync(full, 'utf8'));
  } catch {
    return undefined;
  }
}

export async function snapshotOf(root: string): Promise<Snapshot> {
  const { git, files: list } = await listFiles(root);
  const snap: Snapshot = {
    root,
    git,
    files: new Set(list),
    dirs: new Set(),
    byName: new Map(),
    facts: new Map(),
    scripts: new Map(),
    deps: new Map(),
    byKey: new Map(),
    byLeaf: new Map(),
    byValue: new Map(),
  };
  for (const f of list) {
    push(snap.byName, basename(f), f);
    for (let d = posix.dirname(f); d !== '.' && !snap.dirs.has(d); d = posix.dirname(d)) snap.dirs.add(d);
  }
  const factFiles = list
    .filter((f) => isFactFile(f) && f.split('/').length <= FACT_DEPTH + 1 && !GENERATED.test(f))
    .sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))
    .slice(0, FACT_FILES_MAX);
  for (const path of factFiles) {
    const facts = readFacts(root, path);
    if (facts === undefined) continue;
    snap.facts.set(path, facts);
    for (const [name, version] of facts.deps) if (!snap.deps.has(depName(name))) snap.deps.set(depName(name), { name, version, path });
    for (const [key, value] of facts.keys) {
      if (path === 'package.json' && key.startsWith('scripts.')) {
        snap.scripts.set(key.slice('scripts.'.length), value);
        continue;
      }
      const entry = { path, key, value };
      push(snap.byKey, key, entry);
      push(snap.byLeaf, leafOf(key), entry);
      if (value.length >= 2 && value.length <= 60 && !/^(?:true|false|null)$/i.test(value)) push(snap.byValue, value.toLowerCase(), entry);
    }
  }
  return snap;
}
