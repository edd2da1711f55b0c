/**
 * ANSI colours and styles to DOM nodes, by anser: text goes in as text nodes (nothing is parsed as
 * HTML) and every colour is a class (the CSP allows no inline styles). 24-bit colours take the
 * nearest of the 256-colour palette.
 */
import Anser, { type AnserJsonEntry } from 'anser';

type Style = Pick<AnserJsonEntry, 'fg' | 'bg' | 'fg_truecolor' | 'bg_truecolor' | 'decorations'>;

/** The index of the xterm 256-colour palette nearest to "r, g, b" (the 6×6×6 cube or the grays). */
export function nearestPalette(rgb: string): number {
  const [r = 0, g = 0, b = 0] = rgb.split(',').map((x) => Number(x.trim()));
  const level = (v: number) => (v < 48 ? 0 : v < 115 ? 1 : Math.floor((v - 35) / 40));
  const steps = [0, 95, 135, 175, 215, 255];
  const [cr, cg, cb] = [level(r), level(g), level(b)];
  const cube = 16 + 36 * cr + 6 * cg + cb;
  const d = (x: number, y: number, z: number) => (x - r) ** 2 + (y - g) ** 2 + (z - b) ** 2;
  const cubeD = d(steps[cr] ?? 0, steps[cg] ?? 0, steps[cb] ?? 0);
  const grayIdx = Math.min(23, Math.max(0, Math.round(((r + g + b) / 3 - 8) / 10)));
  const gv = 8 + grayIdx * 10;
  return d(gv, gv, gv) < cubeD ? 232 + grayIdx : cube;
}

function colourClass(name: string | null, truecolor: string | null, side: 'fg' | 'bg'): string | null {
  if (!name) return null;
  if (name === 'ansi-truecolor') return truecolor ? `ansi-palette-${nearestPalette(truecolor)}-${side}` : null;
  return `${name}-${side}`;
}

function classesOf(s: Style): string {
  const out: string[] = [];
  const fg = colourClass(s.fg, s.fg_truecolor, 'fg');
  const bg = colourClass(s.bg, s.bg_truecolor, 'bg');
  if (fg) out.push(fg);
  if (bg) out.push(bg);
  for (const d of s.decorations) out.push(`ansi-${d}`);
  return out.join(' ');
}

/**
 * One stream of text: the colour set in one piece still applies to the next. An escape sequence
 * cut between two pieces waits for its end.
 */
export class AnsiStream {
  private readonly anser = new Anser();
  private last: Style | null = null;
  private held = '';

  /** A fragment of spans and text nodes for `text`. */
  render(text: string): DocumentFragment {
    let input = this.held + text;
    this.held = '';
    const esc = input.lastIndexOf('\x1b');
    // An unfinished CSI sequence (no final byte yet) at the end waits for the next piece.
    if (esc >= 0 && !/^\x1b(\[[0-?]*[ -/]*[@-~]|[^[])/.test(input.slice(esc))) {
      this.held = input.slice(esc);
      input = input.slice(0, esc);
    }
    const frag = document.createDocumentFragment();
    const entries = this.anser.ansiToJson(input, { json: true, use_classes: true, remove_empty: false });
    entries.forEach((e, i) => {
      if (!e.content) return;
      // anser starts each call's first piece unstyled; the style it ended the last call with goes on.
      const style: Style = i === 0 && this.last ? this.last : e;
      const cls = classesOf(style);
      const text = document.createTextNode(e.content);
      if (!cls) {
        frag.appendChild(text);
        return;
      }
      const span = document.createElement('span');
      span.className = cls;
      span.appendChild(text);
      frag.appendChild(span);
    });
    const end = entries[entries.length - 1];
    if (end && entries.length > 1) this.last = end;
    return frag;
  }
}
