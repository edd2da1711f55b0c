/** Format detection from the first non-blank lines, so callers need not know which agent wrote a file. */
import { open } from 'node:fs/promises';
import { AppError } from '../../errors.js';
import { FORMATS } from './formats.js';
import { isRecord, type JsonRecord, parseJson } from './json.js';
import { type Line, readLines } from './lines.js';
import type { TranscriptFormat } from './types.js';

const HEAD_LINES = 8;
const PROBE_BYTES = 4096;

/** The start of a transcript: a JSON array, or lines up to the first one whose format is clear. */
export interface Head {
  array: boolean;
  lines: Line[];
  format?: TranscriptFormat;
}

export async function readHead(file: string): Promise<Head> {
  // A JSON array may be a single line of many MB: its first character tells, without reading it.
  const fh = await open(file, 'r');
  let probe: string;
  try {
    const buf = Buffer.alloc(PROBE_BYTES);
    const { bytesRead } = await fh.read(buf, 0, PROBE_BYTES, 0);
    probe = buf.subarray(0, bytesRead).toString('utf8');
  } finally {
    await fh.close();
  }
  if (probe.replace(/^[\uFEFF\s]+/, '').startsWith('[')) return { array: true, lines: [] };
  const lines: Line[] = [];
  for await (const line of readLines(file)) {
    if (!line.oversized && line.text.trim() === '') continue;
    lines.push(line);
    const value = parseJson(line.text);
    const format = isRecord(value) ? classifyLine(value) : undefined;
    if (format !== undefined) return { array: false, lines, format };
    if (lines.length === HEAD_LINES) break;
  }
  return { array: false, lines };
}

/** The format one line belongs to, if it tells: the first format of the list that claims it. */
export function classifyLine(line: JsonRecord): TranscriptFormat | undefined {
  return FORMATS.find((f) => f.detect(line))?.name;
}

export function detectFormat(head: Head, file: string): TranscriptFormat {
  if (head.array) return 'messages';
  if (head.format !== undefined) return head.format;
  const why =
    head.lines.length === 0 ? 'it has no complete line yet' : `none of its first ${head.lines.length} lines looks like Claude Code, Codex or chat messages`;
  throw new AppError('bad_request', `cannot tell the transcript format of ${file}: ${why}; pass the format explicitly`);
}

/** Reads the head of `file` and names its format. */
export async function detectTranscriptFormat(file: string): Promise<TranscriptFormat> {
  return detectFormat(await readHead(file), file);
}
