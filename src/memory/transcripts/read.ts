/** The entry point: parse a transcript from a byte offset, streaming its messages. */
import { open, readFile } from 'node:fs/promises';
import { AppError, isErrno } from '../../errors.js';
import { detectFormat, readHead } from './detect.js';
import { formatNamed } from './formats.js';
import { isRecord, parseJson } from './json.js';
import { type Line, readLines } from './lines.js';
import type { LineParser, ParseResult, TranscriptFormat, TranscriptMessage, TranscriptParse, TranscriptStats } from './types.js';

export interface ParseOptions {
  /** Skips detection, e.g. the format an earlier parse of the same file reported. */
  format?: TranscriptFormat;
  /** Where to resume: the `endOffset` of an earlier parse (0 = from the start). */
  offset?: number;
}

/** JSON-array transcripts are read whole; past this size they are refused rather than risk the heap. */
export const MAX_ARRAY_BYTES = 200 * 1024 * 1024;

/**
 * The file's size and whether `offset` starts a line (follows a newline). Offsets that cannot be a
 * resume point are rejected, so a stale cursor fails loudly instead of misparsing.
 */
export async function resumePoint(file: string, offset: number): Promise<{ size: number; atLineStart: boolean }> {
  if (!Number.isSafeInteger(offset) || offset < 0) throw new AppError('bad_request', `offset must be a non-negative integer, got ${offset}`);
  let fh;
  try {
    fh = await open(file, 'r');
  } catch (err) {
    if (isErrno(err, 'ENOENT')) throw new AppError('not_found', `transcript not found: ${file}`);
    throw err;
  }
  try {
    const { size } = await fh.stat();
    if (offset > size) {
      throw new AppError(
        'bad_request',
        `offset ${offset} is past the end of ${file} (${size} bytes): the transcript was truncated or replaced; parse it again from 0`,
      );
    }
    if (offset === 0) return { size, atLineStart: true };
    const byte = Buffer.alloc(1);
    await fh.read(byte, 0, 1, offset - 1);
    return { size, atLineStart: byte[0] === 0x0a };
  } finally {
    await fh.close();
  }
}

async function* lineMessages(file: string, offset: number, parser: LineParser, stats: TranscriptStats): AsyncGenerator<TranscriptMessage> {
  for await (const line of readLines(file, offset)) {
    stats.linesRead++;
    if (line.oversized || line.text.trim() !== '') {
      const value = line.oversized ? undefined : parseJson(line.text);
      if (isRecord(value)) yield* parser.parse(value, `@${line.start}`);
      else stats.malformedLines++;
    }
    // Only once all of a line's messages were taken: a consumer that stops early resumes at that line.
    // An open line has no end yet: a later parse starts at it again.
    if (!line.open) stats.endOffset = line.end;
  }
  yield* parser.finish?.() ?? [];
}

/** An array is all or nothing: endOffset moves to its end only once every element was taken. */
async function* arrayMessages(file: string, parser: LineParser, stats: TranscriptStats): AsyncGenerator<TranscriptMessage> {
  const bytes = await readFile(file);
  const value = parseJson(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  if (!Array.isArray(value)) {
    // Invalid or still being written: nothing is consumed, so a later parse tries again.
    stats.malformedLines++;
    return;
  }
  for (const [index, element] of value.entries()) {
    stats.linesRead++;
    if (isRecord(element)) yield* parser.parse(element, `#${index}`);
    else stats.malformedLines++;
  }
  yield* parser.finish?.() ?? [];
  stats.endOffset = bytes.length;
}

/**
 * A resumed parse replays the head lines before `offset`, discarding their messages, so the
 * session's id and starting cwd (Codex's session_meta) are known.
 */
function prime(parser: LineParser, head: Line[], offset: number): void {
  for (const line of head) {
    if (line.end > offset) return;
    const value = parseJson(line.text);
    if (isRecord(value)) parser.parse(value, `@${line.start}`);
  }
}

/**
 * Streams the messages of a transcript from `offset` on (format detected from its first lines
 * unless given). JSONL is read line by line, so memory does not grow with the file; a last line
 * without its newline is left for the next parse. Malformed lines are counted, never fatal.
 * Messages a parser holds back for a later verdict (a queued prompt that may still arrive, a plan
 * awaiting approval, a compaction sidechain's summary) come after the last line.
 */
export async function parseTranscript(file: string, options: ParseOptions = {}): Promise<TranscriptParse> {
  const offset = options.offset ?? 0;
  const { size, atLineStart } = await resumePoint(file, offset);
  const head = await readHead(file);
  const format = options.format ?? detectFormat(head, file);
  const parser = formatNamed(format).parse();
  const stats: TranscriptStats = { malformedLines: 0, linesRead: 0, endOffset: offset };
  const snapshot = (): TranscriptStats => {
    const { sessionId, cwd, agentId } = parser.session;
    return { ...stats, ...(sessionId !== undefined && { sessionId }), ...(cwd !== undefined && { cwd }), ...(agentId !== undefined && { agentId }) };
  };
  if (head.array) {
    if (size > MAX_ARRAY_BYTES) {
      throw new AppError(
        'payload_too_large',
        `${file} is a JSON array of ${size} bytes; arrays are read whole and capped at ${MAX_ARRAY_BYTES} bytes: convert it to JSONL (one message per line)`,
      );
    }
    if (offset !== 0 && offset !== size) {
      throw new AppError('bad_request', `${file} is a JSON array, which cannot be resumed from offset ${offset}; parse it again from 0`);
    }
    const messages = offset === 0 ? arrayMessages(file, parser, stats) : (async function* () {})();
    return { format, messages, stats: snapshot };
  }
  if (!atLineStart) {
    throw new AppError('bad_request', `offset ${offset} of ${file} is not the start of a line; resume only from a returned endOffset`);
  }
  prime(parser, head.lines, offset);
  return { format, messages: lineMessages(file, offset, parser, stats), stats: snapshot };
}

/** parseTranscript, collected: for small transcripts and tests. */
export async function readTranscript(file: string, options: ParseOptions = {}): Promise<ParseResult> {
  const parse = await parseTranscript(file, options);
  const messages: TranscriptMessage[] = [];
  for await (const message of parse.messages) messages.push(message);
  return { format: parse.format, messages, ...parse.stats() };
}

/** The messages of one JSONL line read on its own (provenance: a source message opened in place). */
export function messagesOfLine(format: TranscriptFormat, text: string, start: number): TranscriptMessage[] {
  const value = parseJson(text);
  return isRecord(value) ? formatNamed(format).parse().parse(value, `@${start}`) : [];
}
