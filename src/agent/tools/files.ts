/**
 * Files: read a slice of lines (numbered, so the model can page and point), write a whole file,
 * and edit by exact-match replacement, which fails loudly (not found, found several times) instead
 * of guessing.
 */
import { createReadStream } from 'node:fs';
import { mkdir, open, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { isErrno } from '../../errors.js';
import { humanSize } from '../../client/format.js';
import { defineTool, failure, ToolFailure, type ToolContext, type ToolResult } from './types.js';

export const READ_DEFAULT_LINES = 2000;
export const READ_MAX_LINES = 5000;
/** Characters of one line shown; longer lines are cut. */
const LINE_MAX_CHARS = 2000;
/** Bytes one read returns at most; a read that would pass it stops early and says where to go on. */
const READ_MAX_BYTES = 256 * 1024;
/** Files larger than this are not edited in memory. */
const EDIT_MAX_BYTES = 16 * 1024 * 1024;

const pathOf = (ctx: ToolContext, p: string): string => resolve(ctx.cwd, p);

async function statOrFail(path: string, shown: string): Promise<import('node:fs').Stats> {
  try {
    return await stat(path);
  } catch (err) {
    if (isErrno(err, 'ENOENT')) throw new ToolFailure(`no such file: ${shown}`);
    if (isErrno(err, 'EACCES')) throw new ToolFailure(`permission denied: ${shown}`);
    throw err;
  }
}

async function looksBinary(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(8192);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead).includes(0);
  } finally {
    await fh.close();
  }
}

const readInput = z.object({
  path: z.string().min(1, 'path is empty'),
  offset: z.number().int().min(1).default(1),
  limit: z.number().int().min(1).max(READ_MAX_LINES).default(READ_DEFAULT_LINES),
});

export async function readFileSlice(i: z.infer<typeof readInput>, ctx: ToolContext): Promise<ToolResult> {
  const path = pathOf(ctx, i.path);
  const st = await statOrFail(path, i.path);
  if (st.isDirectory()) return failure(`${i.path} is a directory; list it with glob {"pattern": "*", "path": ${JSON.stringify(i.path)}}`);
  if (!st.isFile()) return failure(`${i.path} is not a regular file`);
  if (st.size === 0) return { content: `(${i.path} is empty)` };
  if (await looksBinary(path)) return failure(`${i.path} is a binary file (${humanSize(st.size)}); it is not shown`);
  const lines: string[] = [];
  let n = 0;
  let bytes = 0;
  let stoppedAt: number | undefined;
  const rl = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of rl) {
    n++;
    if (n < i.offset || stoppedAt !== undefined || n >= i.offset + i.limit) continue;
    const shown = line.length > LINE_MAX_CHARS ? `${line.slice(0, LINE_MAX_CHARS)}… [line cut: ${line.length} characters]` : line;
    bytes += Buffer.byteLength(shown) + 8;
    if (bytes > READ_MAX_BYTES && lines.length > 0) {
      stoppedAt = n;
      continue;
    }
    lines.push(`${String(n).padStart(6)}\t${shown}`);
  }
  if (i.offset > n) return failure(`${i.path} has ${n} lines; offset ${i.offset} is past its end`);
  const last = i.offset + lines.length - 1;
  const body = lines.join('\n');
  if (last >= n) return { content: i.offset === 1 ? body : `${body}\n[lines ${i.offset}–${last} of ${n}; end of file]` };
  const why = stoppedAt !== undefined ? ` (stopped at ${humanSize(READ_MAX_BYTES)})` : '';
  return { content: `${body}\n[lines ${i.offset}–${last} of ${n}${why}; read more with offset ${last + 1}]` };
}

export const readFileTool = defineTool({
  name: 'read_file',
  description:
    `Read a text file: lines numbered "   N<tab>text" (the numbers are not part of the file). offset = first line (1-based), ` +
    `limit = number of lines (default ${READ_DEFAULT_LINES}, max ${READ_MAX_LINES}).`,
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' }, offset: { type: 'integer', minimum: 1 }, limit: { type: 'integer', minimum: 1 } },
    required: ['path'],
  },
  schema: readInput,
  brief: (i) => (i.offset !== 1 || i.limit !== READ_DEFAULT_LINES ? `${i.path}, ${i.offset}+${i.limit}` : i.path),
  run: readFileSlice,
});

const lineCount = (s: string): number => (s === '' ? 0 : s.split('\n').length - (s.endsWith('\n') ? 1 : 0));

export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Write a whole file (created with its directories, or overwritten). For changes to an existing file prefer edit_file.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'] },
  schema: z.object({ path: z.string().min(1, 'path is empty'), content: z.string() }),
  brief: (i) => `${i.path}, ${humanSize(Buffer.byteLength(i.content))}`,
  run: async (i, ctx) => {
    const path = pathOf(ctx, i.path);
    let existed = true;
    try {
      if ((await stat(path)).isDirectory()) return failure(`${i.path} is a directory`);
    } catch (err) {
      if (!isErrno(err, 'ENOENT')) throw err;
      existed = false;
    }
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, i.content);
    return { content: `${existed ? 'overwrote' : 'created'} ${i.path}: ${humanSize(Buffer.byteLength(i.content))}, ${lineCount(i.content)} lines` };
  },
});

function occurrences(haystack: string, needle: string): number[] {
  const at: number[] = [];
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) at.push(i);
  return at;
}

const lineOf = (text: string, index: number): number => text.slice(0, index).split('\n').length;

const editInput = z.object({
  path: z.string().min(1, 'path is empty'),
  old_string: z.string().min(1, 'old_string is empty (to create a file use write_file)'),
  new_string: z.string(),
  replace_all: z.boolean().default(false),
});

export async function editFile(i: z.infer<typeof editInput>, ctx: ToolContext): Promise<ToolResult> {
  const path = pathOf(ctx, i.path);
  const st = await statOrFail(path, i.path);
  if (!st.isFile()) return failure(`${i.path} is not a regular file`);
  if (st.size > EDIT_MAX_BYTES) return failure(`${i.path} is ${humanSize(st.size)}; edit_file handles files up to ${humanSize(EDIT_MAX_BYTES)} (use bash)`);
  if (i.old_string === i.new_string) return failure('old_string and new_string are the same: nothing to change');
  const text = await readFile(path, 'utf8');
  const at = occurrences(text, i.old_string);
  if (at.length === 0) {
    const hint = /^\s*\d+\t/.test(i.old_string) ? ' It starts with a line number from read_file: leave the numbers out.' : '';
    return failure(
      `old_string was not found in ${i.path}. It must match the file exactly, whitespace and indentation included.${hint} ` +
        'Read the file again (read_file) and copy the text from it.',
    );
  }
  if (at.length > 1 && !i.replace_all) {
    const lines = at.slice(0, 10).map((x) => lineOf(text, x));
    return failure(
      `old_string occurs ${at.length} times in ${i.path} (lines ${lines.join(', ')}${at.length > 10 ? ', …' : ''}). ` +
        'Include more of the surrounding lines to make it unique, or set replace_all to change every one.',
    );
  }
  // split/join and slices: no `$&` replacement patterns, whatever new_string holds.
  const next = i.replace_all
    ? text.split(i.old_string).join(i.new_string)
    : text.slice(0, at[0]) + i.new_string + text.slice((at[0] ?? 0) + i.old_string.length);
  await writeFile(path, next);
  const first = lineOf(text, at[0] ?? 0);
  return { content: `edited ${i.path}: replaced ${at.length === 1 ? `1 occurrence at line ${first}` : `${at.length} occurrences`}` };
}

export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Replace old_string with new_string in a file. old_string must match exactly (whitespace included) and be unique, ' +
    'unless replace_all is set. Read the file first.',
  inputSchema: {
    type: 'object',
    properties: { path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' }, replace_all: { type: 'boolean' } },
    required: ['path', 'old_string', 'new_string'],
  },
  schema: editInput,
  brief: (i) => i.path,
  run: editFile,
});

export const FILE_TOOLS = [readFileTool, writeFileTool, editFileTool];
