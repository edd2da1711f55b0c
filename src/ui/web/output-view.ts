/**
 * The task page's output: chunks of text, each knowing the byte range it came from, in a <pre>.
 * Live text is appended as it arrives; earlier text is prepended by offset on demand. The DOM is
 * capped: past MAX_CHARS the oldest chunks are dropped (and can be loaded again).
 */
import { AnsiStream } from './ansi.js';

export const MAX_CHARS = 4 * 1024 * 1024;

interface Chunk {
  start: number;
  el: HTMLElement;
  chars: number;
}

export class OutputView {
  private chunks: Chunk[] = [];
  private chars = 0;
  /** The byte offset after the last text shown (where live output goes on). */
  end = 0;
  private live = new AnsiStream();

  constructor(private readonly pre: HTMLElement) {}

  /** Where the text shown starts; 0 means the whole output from its beginning. */
  get start(): number {
    return this.chunks[0]?.start ?? this.end;
  }

  /** The first text shown: `[offset, end)` of the output. */
  reset(offset: number, end: number, text: string): void {
    this.pre.textContent = '';
    this.chunks = [];
    this.chars = 0;
    this.end = offset;
    this.live = new AnsiStream();
    this.append(offset, text);
    this.end = end;
  }

  /** Live text starting at byte `offset`; a repeat of text already shown (a reconnect) is skipped. */
  append(offset: number, text: string, nextOffset?: number): void {
    if (offset < this.end) return;
    const stick = this.atBottom();
    const el = this.chunkEl(offset, this.live.render(text));
    this.pre.appendChild(el);
    this.chunks.push({ start: offset, el, chars: text.length });
    this.chars += text.length;
    if (nextOffset !== undefined) this.end = nextOffset;
    this.cap();
    if (stick) this.pre.scrollTop = this.pre.scrollHeight;
  }

  /** Earlier text `[offset, before)`, put in front (colours as of its own start: its past is not read). */
  prepend(offset: number, text: string): void {
    const el = this.chunkEl(offset, new AnsiStream().render(text));
    const keep = this.pre.scrollHeight - this.pre.scrollTop;
    this.pre.insertBefore(el, this.pre.firstChild);
    this.chunks.unshift({ start: offset, el, chars: text.length });
    this.chars += text.length;
    this.pre.scrollTop = this.pre.scrollHeight - keep;
  }

  private chunkEl(offset: number, content: DocumentFragment): HTMLElement {
    const el = document.createElement('span');
    el.dataset.offset = String(offset);
    el.appendChild(content);
    return el;
  }

  private atBottom(): boolean {
    return this.pre.scrollHeight - this.pre.scrollTop - this.pre.clientHeight < 24;
  }

  private cap(): void {
    while (this.chars > MAX_CHARS && this.chunks.length > 1) {
      const c = this.chunks.shift();
      if (!c) break;
      c.el.remove();
      this.chars -= c.chars;
    }
  }
}
