/** Server-sent events of a task's output (the dashboard's live view; EventSource on the browser side). */
import { withFlatStatus } from '../api/task-json.js';
import { utf8Complete } from '../sys/utf8.js';

/** One event: `id` is where a reconnecting EventSource resumes (it sends it back as Last-Event-ID). */
export function sseFrame(event: string, data: unknown, id?: number): string {
  // JSON keeps the text on one `data:` line: SSE would fold \r and \r\n into \n otherwise.
  return `${id !== undefined ? `id: ${id}\n` : ''}event: ${event}\ndata: ${JSON.stringify(data, withFlatStatus)}\n\n`;
}

/** Where to resume: the Last-Event-ID a reconnecting EventSource sends wins over the offset asked for first. */
export function resumeOffset(lastEventId: string | string[] | undefined, offset: number | undefined): number {
  if (typeof lastEventId === 'string' && /^[0-9]{1,16}$/.test(lastEventId)) return Number(lastEventId);
  return offset ?? 0;
}

/**
 * Turns output bytes into `output` events in whole UTF-8 characters: a character split between two
 * reads waits for its last bytes, so the text never holds half of one and offsets stay exact.
 */
export class OutputEvents {
  private carry: Buffer = Buffer.alloc(0);

  constructor(
    private offset: number,
    private readonly send: (frame: string) => Promise<void>,
  ) {}

  async data(chunk: Buffer): Promise<void> {
    const all = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const whole = utf8Complete(all);
    this.carry = Buffer.from(all.subarray(whole.length));
    if (whole.length > 0) await this.emit(whole);
  }

  /** The task has ended: what is left is sent as it is (nothing will complete it), then `end`. */
  async end(data: unknown): Promise<void> {
    if (this.carry.length > 0) await this.emit(this.carry);
    this.carry = Buffer.alloc(0);
    await this.send(sseFrame('end', data));
  }

  private emit(bytes: Buffer): Promise<void> {
    const start = this.offset;
    this.offset += bytes.length;
    return this.send(sseFrame('output', { offset: start, text: bytes.toString('utf8') }, this.offset));
  }
}
