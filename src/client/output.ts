import type { OutputMeta } from '../api/tasks.js';
import { utf8Complete } from '../sys/utf8.js';

/**
 * A read of task output as text for JSON: it never ends in half a character (nextOffset then points
 * at that character's first byte), except at the very end of a finished output, which nothing will
 * ever complete. `finished`: the task had ended before the read.
 */
export function outputText(data: Buffer, meta: Pick<OutputMeta, 'offset' | 'size'>, finished: boolean): { text: string; nextOffset: number; done: boolean } {
  const atEnd = meta.offset + data.length >= meta.size;
  const bytes = finished && atEnd ? data : utf8Complete(data);
  const nextOffset = meta.offset + bytes.length;
  return { text: bytes.toString('utf8'), nextOffset, done: finished && nextOffset >= meta.size };
}
