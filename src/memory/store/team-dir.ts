/**
 * A team's memories: one Markdown file per memory (front matter + the text) in a directory the
 * user configures, typically inside a git repository, so a team shares memory through git. Files
 * this process did not write (a `git pull`, a hand edit) are read back in by `reload`.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Memory, MemoryId } from '../../api/memory.js';
import { diskFullError, isErrno } from '../../errors.js';
import type { Namespace } from './model.js';

const FIELDS = [
  'id',
  'type',
  'stable',
  'pinned',
  'importance',
  'createdAt',
  'lastSeenAt',
  'reinforcements',
  'origin',
  'supersededBy',
  'supersededAt',
  'archivedAt',
  'archiveReason',
  'editedAt',
  'events',
  'sources',
] as const;
const PLAIN = /^[^\s"'[{][^\n]*[^\s]$|^[^\s"'[{]$/;

function value(v: unknown): string {
  if (typeof v === 'string' && PLAIN.test(v) && !/^(true|false|null|-?\d[\d.e+-]*)$/.test(v)) return v;
  return JSON.stringify(v);
}

export function toMarkdown(m: Memory): string {
  const lines = FIELDS.flatMap((k) => (m[k] === undefined ? [] : [`${k}: ${value(m[k])}`]));
  return `---\n${lines.join('\n')}\n---\n${m.content.trim()}\n`;
}

function parseValue(raw: string): unknown {
  const t = raw.trim();
  if (/^(["[{]|true$|false$|null$|-?\d)/.test(t)) {
    try {
      return JSON.parse(t);
    } catch {
      return t;
    }
  }
  return t;
}

/** A memory from its file; hand-written files without front matter get defaults. */
export function fromMarkdown(text: string, file: string, team: string, mtime: string): Memory | string {
  const fm = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  const meta: Record<string, unknown> = {};
  for (const line of (fm?.[1] ?? '').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) meta[line.slice(0, colon).trim()] = parseValue(line.slice(colon + 1));
  }
  const content = (fm ? (fm[2] ?? '') : text).trim();
  const base = file.replace(/\.md$/, '');
  const id = MemoryId.safeParse(meta.id).success
    ? meta.id
    : MemoryId.safeParse(base).success
      ? base
      : `m${createHash('sha256').update(`${team}/${file}`).digest('hex').slice(0, 12)}`;
  const parsed = Memory.safeParse({
    type: 'note',
    stable: true,
    importance: 0.6,
    createdAt: mtime,
    lastSeenAt: mtime,
    reinforcements: 0,
    sources: [],
    ...meta,
    id,
    content,
    scope: 'team',
    team,
  });
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  return parsed.data;
}

export class TeamDir {
  readonly namespace: Namespace;
  memories: Memory[] = [];
  /** File text as last written or read, by memory id: unchanged memories are not rewritten. */
  private readonly known = new Map<string, string>();
  /** A memory keeps the file it was read from (a hand-named file stays that file). */
  private readonly fileNames = new Map<string, string>();
  /** Files that could not be read as memories, with why. */
  problems: { file: string; error: string }[] = [];
  /** Called when a save fails, to read the directory back in: what was not written is not kept. */
  onRevert: (() => void) | undefined;

  constructor(
    readonly team: string,
    readonly dir: string,
  ) {
    this.namespace = { scope: 'team', team };
    mkdirSync(dir, { recursive: true });
  }

  /** Reads every `*.md` file directly in the directory (no symlinks, no subdirectories). */
  reload(): Memory[] {
    const out: Memory[] = [];
    this.problems = [];
    this.known.clear();
    this.fileNames.clear();
    let names: string[] = [];
    try {
      names = readdirSync(this.dir).filter((f) => f.endsWith('.md') && !f.startsWith('.'));
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
    }
    for (const f of names.sort()) {
      const path = join(this.dir, f);
      const st = lstatSync(path);
      if (!st.isFile()) continue;
      const text = readFileSync(path, 'utf8');
      const m = fromMarkdown(text, f, this.team, st.mtime.toISOString());
      if (typeof m === 'string') {
        this.problems.push({ file: path, error: m });
        continue;
      }
      if (out.some((x) => x.id === m.id)) continue;
      out.push(m);
      this.known.set(m.id, text);
      this.fileNames.set(m.id, f);
    }
    this.memories = out;
    return out;
  }

  /** Writes the memories whose file text changed, each atomically; on failure, reads the directory back (`onRevert`). */
  async save(): Promise<void> {
    for (const m of this.memories) {
      const text = toMarkdown(m);
      if (this.known.get(m.id) === text) continue;
      const path = join(this.dir, this.fileNames.get(m.id) ?? `${m.id}.md`);
      try {
        writeFileSync(`${path}.tmp`, text, { mode: 0o644 });
        renameSync(`${path}.tmp`, path);
      } catch (err) {
        rmSync(`${path}.tmp`, { force: true });
        this.onRevert?.();
        throw diskFullError(err, path);
      }
      this.known.set(m.id, text);
    }
  }

  /** True when every file's text is what this process wrote or read last (our own writes echoing back). */
  unchangedOnDisk(): boolean {
    let names: string[];
    try {
      names = readdirSync(this.dir).filter((f) => f.endsWith('.md') && !f.startsWith('.'));
    } catch {
      return this.known.size === 0;
    }
    if (names.length !== this.known.size) return false;
    const byFile = new Map([...this.fileNames].map(([id, f]) => [f, id]));
    return names.every((f) => {
      const id = byFile.get(f);
      try {
        return id !== undefined && readFileSync(join(this.dir, f), 'utf8') === this.known.get(id);
      } catch {
        return false;
      }
    });
  }
}
