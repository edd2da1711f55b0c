/**
 * What a config file or manifest says, flattened: its keys as dotted paths with their scalar
 * values, and the dependencies it declares with their versions. Each format through its maintained
 * parser (jsonc-parser, smol-toml, yaml); a file that does not parse says nothing.
 */
import { basename, extname } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';

export interface Facts {
  /** Dotted key → its scalar value as text (a package.json script is `scripts.NAME`). */
  keys: Map<string, string>;
  /** Dependency name → version (or `*` when the manifest names none). */
  deps: Map<string, string>;
}

const CONFIG_EXT = new Set(['.json', '.jsonc', '.json5', '.toml', '.yaml', '.yml']);
/** Lock files and generated indexes: data, not configuration anyone speaks of. */
const LOCKS = /(?:^|[-.])lock(?:\.json|\.ya?ml)?$|^package-lock\.json$|^npm-shrinkwrap\.json$/i;
const PLAIN_MANIFESTS = new Set(['requirements.txt', 'go.mod']);

/** Whether a file is one whose keys or dependencies are read (by its name alone). */
export function isFactFile(path: string): boolean {
  const name = basename(path);
  if (LOCKS.test(name)) return false;
  return CONFIG_EXT.has(extname(name).toLowerCase()) || PLAIN_MANIFESTS.has(name) || /^\.env(?:\.[\w-]+)?$/.test(name);
}

type Tree = unknown;

function parseTree(name: string, text: string): Tree {
  const ext = extname(name).toLowerCase();
  if (ext === '.toml') return parseToml(text);
  if (ext === '.yaml' || ext === '.yml') return parseYaml(text, { maxAliasCount: 100 }) as Tree;
  if (name.startsWith('.env')) return Object.fromEntries(text.split('\n').flatMap((l) => envLine(l)));
  return parseJsonc(text, [], { allowTrailingComma: true }) as Tree;
}

function envLine(line: string): [string, string][] {
  const m = /^\s*(?:export\s+)?([A-Za-z_][\w.]*)\s*=\s*(.*?)\s*$/.exec(line);
  if (m === null) return [];
  return [[m[1] as string, (m[2] as string).replace(/^(['"])(.*)\1$/, '$2')]];
}

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Scalars at their dotted paths; arrays are left out (their items have no name to speak of). */
function flatten(tree: unknown, prefix: string, out: Map<string, string>, depth = 0): void {
  if (!isObject(tree) || depth > 12) return;
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix === '' ? k : `${prefix}.${k}`;
    if (isObject(v)) flatten(v, key, out, depth + 1);
    else if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out.set(key, String(v));
    if (out.size > 5000) return;
  }
}

const DEP_TABLES = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies', 'dev-dependencies', 'build-dependencies'];

/** A PEP 508 requirement ("requests>=2.31 ; python_version…") as name and version. */
function requirement(spec: string): [string, string] | undefined {
  const m = /^\s*([A-Za-z0-9][\w.-]*)\s*(?:\[[^\]]*\])?\s*([^;#\s][^;#]*)?/.exec(spec);
  if (m === null || m[1] === undefined) return undefined;
  return [m[1], (m[2] ?? '*').trim() || '*'];
}

function depsOf(name: string, tree: unknown, text: string): Map<string, string> {
  const deps = new Map<string, string>();
  const table = (t: unknown) => {
    if (!isObject(t)) return;
    for (const [dep, v] of Object.entries(t)) {
      const version = typeof v === 'string' ? v : isObject(v) && typeof v['version'] === 'string' ? v['version'] : '*';
      if (!deps.has(dep)) deps.set(dep, version);
    }
  };
  if (name === 'go.mod') {
    for (const line of text.split('\n')) {
      const m = /^\s*(?:require\s+)?([\w.-]+\.[\w-]+\/[\w./-]+)\s+(v[\w.+-]+)/.exec(line);
      if (m?.[1] !== undefined && m[2] !== undefined) deps.set(m[1], m[2]);
    }
    return deps;
  }
  if (name === 'requirements.txt') {
    for (const line of text.split('\n')) {
      const r = line.trimStart().startsWith('-') ? undefined : requirement(line.replace(/#.*/, ''));
      if (r !== undefined) deps.set(r[0], r[1]);
    }
    return deps;
  }
  if (!isObject(tree)) return deps;
  for (const t of DEP_TABLES) table(tree[t]);
  const project = tree['project'];
  if (isObject(project) && Array.isArray(project['dependencies']))
    for (const spec of project['dependencies']) {
      const r = typeof spec === 'string' ? requirement(spec) : undefined;
      if (r !== undefined) deps.set(r[0], r[1]);
    }
  const poetry = isObject(tree['tool']) ? tree['tool']['poetry'] : undefined;
  if (isObject(poetry)) for (const t of DEP_TABLES) table(poetry[t]);
  return deps;
}

/** The facts of one file's text; a file that does not parse has none. */
export function factsOf(path: string, text: string): Facts {
  const name = basename(path);
  let tree: Tree;
  try {
    tree = PLAIN_MANIFESTS.has(name) ? undefined : parseTree(name, text);
  } catch {
    return { keys: new Map(), deps: new Map() };
  }
  const keys = new Map<string, string>();
  flatten(tree, '', keys);
  const deps = depsOf(name, tree, text);
  // Dependencies are facts of their own: their tables are not config keys as well.
  for (const k of [...keys.keys()]) if (DEP_TABLES.some((t) => k.startsWith(`${t}.`) || k.includes(`.${t}.`))) keys.delete(k);
  return { keys, deps };
}
