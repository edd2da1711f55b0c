/**
 * ANSI colours and styles to DOM nodes, by anser: text goes in as text nodes (nothing is parsed as
 * HTML) and every colour is a class (the CSP allows no inline styles). 24-bit colours take the
 * nearest of the 256-colour palette.
 *
 * anser reads CSI sequences only; the others (OSC 8 hyperlinks, OSC 0 titles, DCS, cursor saves)
 * would show as raw text, so they are dropped first, found by ansi-regex (what strip-ansi uses). A
 * hyperlink thus shows as its text and never becomes a link.
 */
import Anser, { type AnserJsonEntry } from 'anser';
import ansiRegex from 'ansi-regex';

const SEQUENCES = ansiRegex();

/** The text without its non-CSI sequences (CSI is kept for anser: colours and styles). */
function withoutControls(s: string): string {
  return s.includes('\x1b') || /[\x90-\x9f]/.test(s) ? s.replace(SEQUENCES, (m) => (m.startsWith('\x1b[') ? m : '')) : s;
}

/**
 * A sequence begun at the end of a piece and not finished in it: a CSI without its final byte, an
 * OSC or other control string without its terminator (perhaps cut inside `ESC \`), a lone ESC.
 * Complete sequences but CSI are gone by then, and a complete CSI ends in a final byte.
 */
const UNFINISHED = /\x1b(?:\[[0-?]*[ -/]*|[\]PX^_k][^\x07\x18\x1a\x1b\x9c]*\x1b?|[ -/]*)?$/;

/** Past this, an unfinished sequence is given up on and shown (without its ESC) rather than held. */
const MAX_HELD = 4096;

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
    let input = withoutControls(this.held + text);
    this.held = '';
    // An unfinished sequence at the end waits for the next piece.
    const cut = UNFINISHED.exec(input);
    if (cut) {
      const tail = input.slice(cut.index);
      input = input.slice(0, cut.index);
      if (tail.length <= MAX_HELD) this.held = tail;
      else input += tail.slice(1);
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
