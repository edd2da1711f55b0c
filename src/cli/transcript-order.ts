/**
 * The order to ingest several transcripts in: by the time each one starts, as written in it. A
 * later session's change retires what an earlier one said only when it is ingested after it, and
 * a shell's glob lists Claude Code's transcripts by their random names, not their time.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** How much of a transcript is read for its first time: a long first message comes before it in Claude Code's lines. */
const HEAD_BYTES = 256 * 1024;
/** Claude Code's and Codex's lines carry an ISO time under `timestamp`; plain messages may too. */
const TIMESTAMP = /"timestamp"\s*:\s*"(\d{4}-\d\d-\d\dT[\d:.]+(?:Z|[+-]\d\d:?\d\d)?)"/;

/** When the transcript at `path` starts, in ms; undefined when it names no time or cannot be read. */
export function startOf(path: string): number | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, buf, 0, HEAD_BYTES, 0);
    const iso = TIMESTAMP.exec(buf.toString('utf8', 0, n))?.[1];
    const ms = iso === undefined ? Number.NaN : Date.parse(iso);
    return Number.isNaN(ms) ? undefined : ms;
  } catch {
    // Unreadable here: the daemon's ingest names the error.
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** `paths` oldest first; those that name no time keep their order, after the rest. */
export function inTimeOrder(paths: readonly string[]): string[] {
  const timed = paths.map((path, i) => ({ path, i, at: startOf(path) ?? Number.POSITIVE_INFINITY }));
  return timed.sort((a, b) => a.at - b.at || a.i - b.i).map((t) => t.path);
}
