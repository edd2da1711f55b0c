/**
 * The prose of a message, as sentences: fenced code, injected tag blocks and pasted output are
 * dropped first, so everything after this only ever sees what a person wrote.
 */
import { looksLikeOutput } from './output-lines.js';

/** Paragraphs at least this long that are this much output were pasted, prose lines and all. */
const PASTED_MIN_LINES = 3;
const PASTED_SHARE = 0.4;
/** A whole message this long that is mostly output is a paste with a caption. */
const PASTE_MIN_LINES = 10;
const PASTE_SHARE = 0.5;
/** A line at least this long that stops mid-sentence was wrapped by an editor (or by the person). */
const WRAPPED = 40;
/** A line that ends on one of these stops mid-sentence, however short: "…release notes with the\nthree sections". */
const OPEN_END =
  /\b(?:a|an|the|of|to|for|with|and|or|but|in|on|at|by|from|as|that|which|who|into|than|each|every|all|no|not|my|our|your|its|their|this|these)$/i;
/** Longer units are never read: no sentence that long is a memory, and it bounds regex work. */
const MAX_UNIT = 2000;

const FENCE = /^\s*(?:```|~~~)/;
// Claude Code wraps injected context and local command output in tags (<system-reminder>, …).
const OPEN_TAG = /<([a-z][\w-]*)(?:\s[^<>]*)?>/gi;
const BULLET = /^\s*(?:[-*•]|\d{1,2}[.)]|\[[ x]\])\s+/;
const ENDS_SENTENCE = /[.!?:;]["')\]]*\s*$/;

/**
 * The text without `<tag>…</tag>` blocks. Closing tags are found with indexOf, and a name seen
 * without one is not looked for again, so unclosed tags cannot make this quadratic.
 */
function stripTagBlocks(text: string): string {
  const unclosed = new Set<string>();
  let out = '';
  let pos = 0;
  OPEN_TAG.lastIndex = 0;
  for (let m = OPEN_TAG.exec(text); m !== null; m = OPEN_TAG.exec(text)) {
    const name = m[1] ?? '';
    if (unclosed.has(name)) continue;
    const close = text.indexOf(`</${name}>`, OPEN_TAG.lastIndex);
    if (close < 0) {
      unclosed.add(name);
      continue;
    }
    out += `${text.slice(pos, m.index)}\n`;
    pos = close + name.length + 3;
    OPEN_TAG.lastIndex = pos;
  }
  return pos === 0 ? text : out + text.slice(pos);
}

/** A list item's number inside a line: "… miss out on entries 2. Agents …". */
const INLINE_ITEM = /(?:^|\s)(\d{1,2})[.)]\s+(?=\S)/g;

/**
 * A numbered list typed on one line ("1. fire your fund manager 2. humans sleep off … 3. …"), as
 * its items, each on a line of its own (with what came before the first): without it, a sentence
 * runs into the next item's number ("… Agents do not 3."). Only a run 1, 2, … in order counts, and
 * only of items that end a clause: items that end in a comma are one sentence's parts.
 */
function inlineItems(line: string): string[] {
  if (!/(?:^|\s)1[.)]\s/.test(line) || !/\s2[.)]\s/.test(line)) return [line];
  const cuts: number[] = [];
  INLINE_ITEM.lastIndex = 0;
  for (let m = INLINE_ITEM.exec(line); m !== null; m = INLINE_ITEM.exec(line)) {
    if (Number(m[1]) === cuts.length + 1) cuts.push(m.index + m[0].length - m[0].trimStart().length);
  }
  if (cuts.length < 2) return [line];
  const items = cuts.map((c, i) => line.slice(c, cuts[i + 1]).trim());
  // "I built: 1) the contract, 2) the frontend, 3) the hooks": one sentence that counts its parts.
  if (items.slice(0, -1).some((item) => /[,;]$/.test(item))) return [line];
  return [line.slice(0, cuts[0]).trim(), ...items].filter((p) => p !== '');
}

/** Lines outside fences, grouped into paragraphs. */
function paragraphs(text: string): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  let fenced = false;
  const fences = text.includes('```') || text.includes('~~~');
  for (const line of (text.includes('<') ? stripTagBlocks(text) : text).split('\n')) {
    if (fences && FENCE.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    if (line.trim() === '') {
      if (current.length > 0) out.push(current);
      current = [];
    } else current.push(...inlineItems(line.endsWith('\r') ? line.slice(0, -1) : line));
  }
  if (current.length > 0) out.push(current);
  return out;
}

interface Unit {
  text: string;
  bullet: boolean;
}

/** A paragraph's prose units: bullets stand alone, wrapped lines are joined back. */
function units(lines: string[], flags: boolean[]): Unit[] {
  const share = flags.filter(Boolean).length / lines.length;
  if (lines.length >= PASTED_MIN_LINES && share >= PASTED_SHARE) return [];
  const out: Unit[] = [];
  lines.forEach((line, i) => {
    if (flags[i] === true) return;
    const bullet = BULLET.test(line);
    const text = line.replace(BULLET, '').trim();
    const prev = out[out.length - 1];
    // A long unfinished line followed by one in lower case was hard-wrapped; short lines typed
    // one after another are separate thoughts.
    const wrapped = prev !== undefined && (prev.text.length >= WRAPPED || OPEN_END.test(prev.text));
    if (!bullet && prev !== undefined && wrapped && !ENDS_SENTENCE.test(prev.text) && /^[a-z(]/.test(text) && flags[i - 1] !== true) {
      prev.text = `${prev.text} ${text}`;
    } else out.push({ text, bullet });
  });
  return out;
}

export interface Block {
  text: string;
  bullet: boolean;
  /** For a bullet: the line that introduced its list ("workflow:"), when there was one. */
  intro?: string;
}

/** Prose paragraphs and bullets, fenced code, tag blocks and pasted output removed. */
export function proseBlocks(text: string): Block[] {
  if (!text.includes('\n') && !text.includes('<') && inlineItems(text).length === 1) {
    const line = text.trim();
    if (line.length === 0 || line.length > MAX_UNIT || looksLikeOutput(line)) return [];
    return [{ text: line.replace(BULLET, ''), bullet: BULLET.test(line) }];
  }
  const paras = paragraphs(text);
  const flags = paras.map((lines) => lines.map(looksLikeOutput));
  let total = 0;
  let pasted = 0;
  for (const f of flags)
    for (const flag of f) {
      total++;
      if (flag) pasted++;
    }
  if (total >= PASTE_MIN_LINES && pasted / total >= PASTE_SHARE) return [];
  const out: Block[] = [];
  let intro: string | undefined;
  for (const unit of paras.flatMap((lines, i) => units(lines, flags[i] ?? []))) {
    if (unit.text.length > MAX_UNIT) continue;
    if (!unit.bullet) intro = unit.text.endsWith(':') ? unit.text : undefined;
    out.push({ text: unit.text, bullet: unit.bullet, ...(unit.bullet && intro !== undefined && { intro }) });
  }
  return out;
}
