/**
 * grep and glob in Node, no external binaries, every answer bounded: files scanned, matches shown,
 * characters returned. VCS directories and node_modules are skipped; symbolic links are not
 * followed (no cycles); binary and very large files are not searched.
 */
import type { Dirent } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import ignore from 'ignore';
import picomatch from 'picomatch';
import { z } from 'zod';
import { isErrno } from '../../errors.js';
import { defineTool, failure, ToolFailure, type ToolContext } from './types.js';

/** Never walked into: version control and dependencies (gitignore syntax). */
const SKIPPED = ignore().add(['.git/', '.hg/', '.svn/', 'node_modules/']);

export const SEARCH_LIMITS = {
  /** Files looked at per call at most. */
  maxFiles: 20_000,
  /** Files larger than this are not searched. */
  maxFileBytes: 4 * 1024 * 1024,
  /** Characters of one matching line shown. */
  lineChars: 240,
  /** Characters one answer holds at most. */
  outputChars: 24_000,
};

const rel = (root: string, file: string): string => relative(root, file).split(sep).join('/');

export interface WalkStats {
  files: number;
  truncated: boolean;
}

/** Files under `root` in a stable order (names sorted), up to `maxFiles`. */
export async function* walk(root: string, stats: WalkStats, maxFiles = SEARCH_LIMITS.maxFiles): AsyncGenerator<string> {
  const stack = [root];
  while (stack.length > 0) {
    const dir = stack.pop() as string;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (err) {
      if (isErrno(err, 'EACCES') || isErrno(err, 'ENOENT') || isErrno(err, 'ENOTDIR')) continue;
      throw err;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const e of entries) {
      if (e.isDirectory()) {
        const sub = join(dir, e.name);
        if (!SKIPPED.ignores(`${rel(root, sub)}/`)) subdirs.push(sub);
      } else if (e.isFile()) {
        if (stats.files >= maxFiles) {
          stats.truncated = true;
          return;
        }
        stats.files++;
        yield join(dir, e.name);
      }
    }
    // Depth first, in name order.
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i] as string);
  }
}

/**
 * A glob as a regular expression over '/'-separated relative paths (picomatch: **, *, ?, [...],
 * {a,b}; dotfiles too). A malformed glob (`src/{a,b`) is a ToolFailure naming it, never a crash.
 */
export function globToRegExp(glob: string): RegExp {
  try {
    return picomatch.makeRe(glob, { dot: true, strictBrackets: true });
  } catch (err) {
    throw new ToolFailure(`invalid glob pattern ${JSON.stringify(glob)}: ${(err as Error).message}`);
  }
}

async function searchRoot(ctx: ToolContext, p: string | undefined): Promise<{ root: string; isFile: boolean; shown: string }> {
  const root = resolve(ctx.cwd, p ?? '.');
  try {
    const st = await stat(root);
    return { root, isFile: st.isFile(), shown: p ?? '.' };
  } catch (err) {
    if (isErrno(err, 'ENOENT')) throw new ToolFailure(`no such file or directory: ${p ?? '.'}`);
    throw err;
  }
}

async function isText(file: string): Promise<boolean> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return !buf.subarray(0, bytesRead).includes(0);
  } finally {
    await fh.close();
  }
}

const grepInput = z.object({
  pattern: z.string().min(1, 'pattern is empty'),
  path: z.string().min(1).optional(),
  glob: z.string().min(1).optional(),
  ignore_case: z.boolean().default(false),
  files_only: z.boolean().default(false),
  max_results: z.number().int().min(1).max(1000).default(100),
});

export const grepTool = defineTool({
  name: 'grep',
  description:
    'Search file contents with a JavaScript regular expression under path (default: the working directory), optionally only files ' +
    'matching glob (e.g. "**/*.ts"). Returns path:line: text, at most max_results (default 100); files_only lists matching files.',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string' },
      path: { type: 'string' },
      glob: { type: 'string' },
      ignore_case: { type: 'boolean' },
      files_only: { type: 'boolean' },
      max_results: { type: 'integer', minimum: 1, maximum: 1000 },
    },
    required: ['pattern'],
  },
  schema: grepInput,
  brief: (i) => `/${i.pattern}/${i.path ? ` in ${i.path}` : ''}${i.glob ? ` ${i.glob}` : ''}`,
  run: async (i, ctx) => {
    let re: RegExp;
    try {
      re = new RegExp(i.pattern, i.ignore_case ? 'i' : '');
    } catch (err) {
      return failure(`invalid regular expression: ${(err as Error).message}`);
    }
    const filter = i.glob ? globToRegExp(i.glob.includes('/') ? i.glob : `**/${i.glob}`) : undefined;
    const { root, isFile, shown } = await searchRoot(ctx, i.path);
    const stats: WalkStats = { files: 0, truncated: false };
    const files = isFile
      ? (async function* () {
          stats.files = 1;
          yield root;
        })()
      : walk(root, stats);
    const out: string[] = [];
    let chars = 0;
    let matches = 0;
    let matchedFiles = 0;
    let skipped = 0;
    let full = false;
    for await (const file of files) {
      const name = isFile ? shown : rel(root, file);
      if (filter && !isFile && !filter.test(name)) continue;
      const size = (await stat(file)).size;
      if (size > SEARCH_LIMITS.maxFileBytes || !(await isText(file))) {
        skipped++;
        continue;
      }
      const lines = (await readFile(file, 'utf8')).split('\n');
      let inFile = 0;
      for (let n = 0; n < lines.length; n++) {
        const line = lines[n] as string;
        if (!re.test(line)) continue;
        inFile++;
        matches++;
        if (full) continue;
        const entry = i.files_only ? name : `${name}:${n + 1}: ${line.length > SEARCH_LIMITS.lineChars ? `${line.slice(0, SEARCH_LIMITS.lineChars)}…` : line}`;
        if (i.files_only && inFile > 1) continue;
        if (out.length >= i.max_results || chars + entry.length > SEARCH_LIMITS.outputChars) {
          full = true;
          continue;
        }
        out.push(entry);
        chars += entry.length + 1;
      }
      if (inFile > 0) matchedFiles++;
    }
    const notes: string[] = [
      `${matches} matching line${matches === 1 ? '' : 's'} in ${matchedFiles} file${matchedFiles === 1 ? '' : 's'} (${stats.files} searched)`,
    ];
    if (full) notes.push(`only the first ${out.length} ${i.files_only ? 'files' : 'matches'} are shown: narrow the pattern, path or glob`);
    if (stats.truncated) notes.push(`the search stopped after ${SEARCH_LIMITS.maxFiles} files: give a narrower path`);
    if (skipped > 0) notes.push(`${skipped} binary or large file(s) skipped`);
    return { content: `${out.length ? `${out.join('\n')}\n` : ''}[${notes.join('; ')}]` };
  },
});

const GLOB_MAX = 500;

export const globTool = defineTool({
  name: 'glob',
  description: `Find files by name pattern under path (default: the working directory): "**/*.ts", "src/*.{js,json}". Newest first, at most ${GLOB_MAX}.`,
  inputSchema: { type: 'object', properties: { pattern: { type: 'string' }, path: { type: 'string' } }, required: ['pattern'] },
  schema: z.object({ pattern: z.string().min(1, 'pattern is empty'), path: z.string().min(1).optional() }),
  brief: (i) => `${i.pattern}${i.path ? ` in ${i.path}` : ''}`,
  run: async (i, ctx) => {
    const { root, isFile } = await searchRoot(ctx, i.path);
    if (isFile) return failure(`${i.path ?? '.'} is a file, not a directory`);
    const re = globToRegExp(i.pattern.replace(/^\.\//, ''));
    const stats: WalkStats = { files: 0, truncated: false };
    const found: Array<{ name: string; mtime: number }> = [];
    let total = 0;
    for await (const file of walk(root, stats)) {
      const name = rel(root, file);
      if (!re.test(name)) continue;
      total++;
      if (found.length < GLOB_MAX * 4) found.push({ name, mtime: (await stat(file)).mtimeMs });
    }
    found.sort((a, b) => b.mtime - a.mtime || (a.name < b.name ? -1 : 1));
    const shown = found.slice(0, GLOB_MAX).map((f) => f.name);
    const notes = [`${total} file${total === 1 ? '' : 's'} match (${stats.files} looked at)`];
    if (total > shown.length) notes.push(`only ${shown.length} are shown: narrow the pattern or path`);
    if (stats.truncated) notes.push(`the walk stopped after ${SEARCH_LIMITS.maxFiles} files: give a narrower path`);
    return { content: `${shown.length ? `${shown.join('\n')}\n` : ''}[${notes.join('; ')}]` };
  },
});

export const SEARCH_TOOLS = [grepTool, globTool];
