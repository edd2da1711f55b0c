/**
 * A shell command line cut into its simple commands the way the shell reads it: quotes, escapes,
 * `$(…)` and backticks keep their contents inside one word, so `rg "pytest|npm test" src` is one
 * command (rg), not a search followed by a test run. Enough of the grammar to read an agent's
 * command line; not a shell.
 */

export interface SimpleCommand {
  /** Words as written (quotes kept), redirections left out. */
  raw: string[];
  /** The same words unquoted. */
  words: string[];
  /** The operator after it: `&&`, `||`, `|`, `;` (a newline too), `&`, or `` at the end of the line. */
  next: string;
}

/** A redirection word: `>`, `2>&1`, `>>log`, `&>/dev/null`, `<in`, `<<<"text"`. */
const REDIRECT = /^(?:\d*|&)(?:>>?|<<?<?)/;
/** A redirection without its target, which is the next word. */
const REDIRECT_ALONE = /^(?:\d*|&)(?:>>?|<<?<?)[|&]?$/;

function withoutRedirections(raw: string[], words: string[]): Pick<SimpleCommand, 'raw' | 'words'> {
  const out: Pick<SimpleCommand, 'raw' | 'words'> = { raw: [], words: [] };
  for (let i = 0; i < raw.length; i++) {
    const w = raw[i] ?? '';
    if (REDIRECT.test(w)) {
      if (REDIRECT_ALONE.test(w)) i++;
      continue;
    }
    out.raw.push(w);
    out.words.push(words[i] ?? '');
  }
  return out;
}

/** Index of the character that closes the `$(` or backtick opened at `i` (the last one if none does). */
function closing(line: string, i: number): number {
  if (line[i] === '`') {
    for (let j = i + 1; j < line.length; j++) if (line[j] === '`' && line[j - 1] !== '\\') return j;
    return line.length - 1;
  }
  let depth = 0;
  let quote: string | undefined;
  for (let j = i + 1; j < line.length; j++) {
    const c = line[j];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return j;
  }
  return line.length - 1;
}

/** The operator starting at `i`, if one does (a `&` inside `2>&1` or `&>` is a redirection's). */
function operatorAt(line: string, i: number, raw: string): { op: string; length: number } | undefined {
  const two = line.slice(i, i + 2);
  if (two === '&&' || two === '||') return { op: two, length: 2 };
  if (two === '|&') return { op: '|', length: 2 };
  const c = line[i];
  if (c === '|') return { op: '|', length: 1 };
  if (c === ';' || c === '\n') return { op: ';', length: 1 };
  if (c === '&' && line[i + 1] !== '>' && !/[<>]$/.test(raw)) return { op: '&', length: 1 };
  return undefined;
}

export function simpleCommands(line: string): SimpleCommand[] {
  const out: SimpleCommand[] = [];
  let raw: string[] = [];
  let words: string[] = [];
  let r = '';
  let w = '';
  let inWord = false;
  const endWord = () => {
    if (inWord) {
      raw.push(r);
      words.push(w);
    }
    r = '';
    w = '';
    inWord = false;
  };
  const endCommand = (next: string) => {
    endWord();
    // An empty command (`(`, a leading `;`) leaves the operator of the one before it as it was.
    if (words.length > 0) out.push({ ...withoutRedirections(raw, words), next });
    raw = [];
    words = [];
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? '';
    if (c === '\\') {
      const n = line[i + 1] ?? '';
      i++;
      if (n === '\n') continue; // a continued line
      r += c + n;
      w += n;
      inWord = true;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      const stop = end < 0 ? line.length : end;
      r += line.slice(i, stop + 1);
      w += line.slice(i + 1, stop);
      inWord = true;
      i = stop;
    } else if (c === '"') {
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        if (line[j] === '\\' && j + 1 < line.length) j++;
        w += line[j];
      }
      r += line.slice(i, j + 1);
      inWord = true;
      i = j;
    } else if ((c === '$' && line[i + 1] === '(') || c === '`') {
      const j = closing(line, i);
      r += line.slice(i, j + 1);
      w += line.slice(i, j + 1);
      inWord = true;
      i = j;
    } else if (c === '#' && !inWord) {
      const nl = line.indexOf('\n', i);
      i = (nl < 0 ? line.length : nl) - 1;
    } else if (c === ' ' || c === '\t' || c === '(' || c === ')') {
      endWord();
    } else {
      const op = operatorAt(line, i, r);
      if (op === undefined) {
        r += c;
        w += c;
        inWord = true;
      } else {
        endCommand(op.op);
        i += op.length - 1;
      }
    }
  }
  endCommand('');
  const last = out[out.length - 1];
  if (last !== undefined) last.next = '';
  return out;
}
