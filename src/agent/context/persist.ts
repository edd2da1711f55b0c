/**
 * At tool execution, before a result enters the history. Output over the persist threshold is
 * written to the task directory and the model gets a preview plus the path and how to page through
 * it: nothing is lost, and a later read costs only the part it needs. When it cannot be saved (no
 * task directory, write error), output over the hard cap keeps its head and tail around a marker:
 * the head has the structure, the tail the errors and summaries.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { utf8Head } from '../../sys/utf8.js';
import { headTail, resultText } from './blocks.js';
import type { ContextEventInput } from './types.js';

export interface PersistConfig {
  enabled: boolean;
  /** Output over this many bytes is saved to disk. */
  thresholdBytes: number;
  /** Size of the preview the model keeps, in bytes (cut at a line end when one is near). */
  previewBytes: number;
  /** Output not saved is cut to this many characters (head + tail). */
  truncateChars: number;
  /** Directory under the task directory. */
  subdir: string;
  /** How the model reads a saved file; the loop knows its read tool. */
  readHint: (path: string, lines: number) => string;
}

export const defaultReadHint = (path: string, lines: number): string =>
  `Read it with the read_file tool, a slice at a time: {"path": ${JSON.stringify(path)}, "offset": 1, "limit": 200} ` +
  `(offset = first line, 1-based; limit = number of lines; ${lines} lines in all).`;

export const DEFAULT_PERSIST: PersistConfig = {
  enabled: true,
  thresholdBytes: 30 * 1024,
  previewBytes: 2 * 1024,
  truncateChars: 50_000,
  subdir: 'tool-results',
  readHint: defaultReadHint,
};

export type PersistOutcome =
  | { kind: 'kept'; text: string }
  | { kind: 'saved'; text: string; path: string; bytes: number }
  | { kind: 'truncated'; text: string; chars: number; reason: string };

export interface PersistTarget {
  /** Task directory; without one nothing is saved. */
  taskDir: string | undefined;
  toolName: string;
  toolUseId: string;
  /** Sequence number, keeps file names unique and ordered. */
  seq: number;
}

/** The first `bytes` bytes of `text`, ending at a line break when one is in the last half. */
export function preview(text: string, bytes: number): string {
  const head = utf8Head(text, bytes);
  const nl = head.lastIndexOf('\n');
  return nl > head.length / 2 ? head.slice(0, nl) : head;
}

const safe = (s: string): string => s.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 48) || 'x';

export async function persistLargeOutput(text: string, target: PersistTarget, cfg: PersistConfig = DEFAULT_PERSIST): Promise<PersistOutcome> {
  const bytes = Buffer.byteLength(text);
  let reason = 'no task directory to save it in';
  if (cfg.enabled && bytes > cfg.thresholdBytes && target.taskDir) {
    const dir = join(target.taskDir, cfg.subdir);
    const path = join(dir, `${String(target.seq).padStart(5, '0')}-${safe(target.toolName)}-${safe(target.toolUseId)}.txt`);
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      await writeFile(path, text, { mode: 0o600 });
      const lines = text.split('\n').length;
      const kb = (bytes / 1024).toFixed(1);
      const head = preview(text, cfg.previewBytes);
      const note = `[Output too large for the context (${kb} KB, ${lines} lines): saved in full to ${path}. ${cfg.readHint(path, lines)}]`;
      return { kind: 'saved', text: `${note}\n\nPreview (first ${Buffer.byteLength(head)} bytes):\n${head}`, path, bytes };
    } catch (err) {
      reason = `could not save it: ${(err as Error).message}`;
    }
  }
  if (text.length > cfg.truncateChars) {
    return { kind: 'truncated', text: headTail(text, cfg.truncateChars, 'output truncated'), chars: text.length, reason };
  }
  return { kind: 'kept', text };
}

/** Tier 3 on a tool_result block, in place: its text saved or cut; images and documents kept. */
export async function persistResult(block: ToolResultBlockParam, target: PersistTarget, cfg: PersistConfig = DEFAULT_PERSIST): Promise<PersistOutcome> {
  const out = await persistLargeOutput(resultText(block), target, cfg);
  if (out.kind === 'kept') return out;
  const parts = typeof block.content === 'string' ? undefined : block.content;
  block.content = parts ? [{ type: 'text', text: out.text }, ...parts.filter((p) => p.type !== 'text')] : out.text;
  return out;
}

/** Tier 3 for a task: its results saved under the task directory, numbered in the order they came. */
export class ResultStore {
  constructor(
    private readonly taskDir: string | undefined,
    private readonly cfg: PersistConfig,
    /** The last number used (a resumed task goes on from its transcript's length). */
    private seq: number,
  ) {}

  /** Tier 3 on `block`, in place; the event worth reporting when it was saved or cut. */
  async store(block: ToolResultBlockParam, toolName: string): Promise<ContextEventInput | undefined> {
    const toolUseId = block.tool_use_id;
    const out = await persistResult(block, { taskDir: this.taskDir, toolName, toolUseId, seq: ++this.seq }, this.cfg);
    if (out.kind === 'saved') return { type: 'persisted', toolUseId, path: out.path, bytes: out.bytes };
    if (out.kind === 'truncated') return { type: 'truncated', toolUseId, chars: out.chars, reason: out.reason };
    return undefined;
  }
}
