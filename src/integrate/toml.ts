/**
 * Just enough TOML to edit one table of a file line by line and keep every other byte: where table
 * headers are, which table each key line belongs to, and which lines are inside multi-line strings
 * or arrays (where a `[` at the start of a line is not a header).
 */

export type LineKind = 'blank' | 'comment' | 'header' | 'keyvalue' | 'continuation';

export interface TomlLine {
  /** The line with its end-of-line characters. */
  text: string;
  kind: LineKind;
  /** header: the table's key; keyvalue: the full key (table key + dotted key). */
  key?: string[];
  /** header: `[[array.of.tables]]`. */
  arrayTable?: boolean;
}

export class TomlSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(`line ${line}: ${message}`);
  }
}

/** Lines with their line ends ("a\r\nb" → ["a\r\n", "b"]). */
export function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

const BARE = /[A-Za-z0-9_-]+/y;

export function scanToml(text: string): TomlLine[] {
  const out: TomlLine[] = [];
  let multiline: '"""' | "'''" | null = null;
  let depth = 0;
  let table: string[] = [];
  const lines = splitLines(text);
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n] ?? '';
    const body = raw.replace(/\r?\n$/, '');
    const fail = (msg: string): never => {
      throw new TomlSyntaxError(n + 1, msg);
    };

    /** Follows strings and brackets of a value from `from`; updates `multiline` and `depth`. */
    const scanValue = (from: number): void => {
      let i = from;
      while (i < body.length) {
        const c = body[i];
        if (c === '#') return;
        if (c === '"' || c === "'") {
          const triple = c.repeat(3);
          if (body.startsWith(triple, i)) {
            const end = multilineEnd(body, i + 3, triple);
            if (end < 0) {
              multiline = triple as '"""' | "'''";
              return;
            }
            i = end;
            continue;
          }
          const end = stringEnd(body, i);
          if (end < 0) fail('unterminated string');
          i = end;
          continue;
        }
        if (c === '[' || c === '{') depth++;
        else if (c === ']' || c === '}') {
          depth--;
          if (depth < 0) fail(`unexpected "${c}"`);
        }
        i++;
      }
    };

    if (multiline) {
      const end = multilineEnd(body, 0, multiline);
      if (end >= 0) {
        multiline = null;
        scanValue(end);
      }
      out.push({ text: raw, kind: 'continuation' });
      continue;
    }
    if (depth > 0) {
      scanValue(0);
      out.push({ text: raw, kind: 'continuation' });
      continue;
    }
    const start = body.length - body.trimStart().length;
    const first = body[start];
    if (first === undefined) {
      out.push({ text: raw, kind: 'blank' });
    } else if (first === '#') {
      out.push({ text: raw, kind: 'comment' });
    } else if (first === '[') {
      const arrayTable = body.startsWith('[[', start);
      const parsed = parseKey(body, start + (arrayTable ? 2 : 1));
      if (typeof parsed === 'string') fail(parsed);
      const { parts, next } = parsed as { parts: string[]; next: number };
      const close = arrayTable ? ']]' : ']';
      if (!body.startsWith(close, next)) fail(`table header is missing "${close}"`);
      const rest = body.slice(next + close.length).trim();
      if (rest !== '' && !rest.startsWith('#')) fail('unexpected text after the table header');
      table = parts;
      out.push({ text: raw, kind: 'header', key: parts, arrayTable });
    } else {
      const parsed = parseKey(body, start);
      if (typeof parsed === 'string') fail(parsed);
      const { parts, next } = parsed as { parts: string[]; next: number };
      if (body[next] !== '=') fail('expected "=" after the key');
      scanValue(next + 1);
      out.push({ text: raw, kind: 'keyvalue', key: [...table, ...parts] });
    }
  }
  if (multiline) throw new TomlSyntaxError(lines.length, 'unterminated multi-line string');
  if (depth > 0) throw new TomlSyntaxError(lines.length, 'unclosed array or inline table');
  return out;
}

/** Index just past the closing quote of the one-line string opening at `i`, or -1. */
function stringEnd(s: string, i: number): number {
  const q = s[i];
  for (let j = i + 1; j < s.length; j++) {
    if (q === '"' && s[j] === '\\') j++;
    else if (s[j] === q) return j + 1;
  }
  return -1;
}

/** Index just past the closing delimiter of a multi-line string whose content starts at `from`, or -1. */
function multilineEnd(s: string, from: number, delim: string): number {
  for (let j = from; j < s.length; j++) {
    if (delim === '"""' && s[j] === '\\') {
      j++;
      continue;
    }
    if (s.startsWith(delim, j)) {
      let end = j + 3;
      // Up to two quotes right before the delimiter belong to the content: """a""""" is `a""`.
      while (end < s.length && s[end] === delim[0] && end - j < 5) end++;
      return end;
    }
  }
  return -1;
}

/** A dotted key at `p` (bare, "basic" or 'literal' parts); the error message when there is none. */
function parseKey(s: string, p: number): { parts: string[]; next: number } | string {
  const parts: string[] = [];
  let i = p;
  const ws = () => {
    while (s[i] === ' ' || s[i] === '\t') i++;
  };
  for (;;) {
    ws();
    const c = s[i];
    if (c === '"' || c === "'") {
      const end = stringEnd(s, i);
      if (end < 0) return 'unterminated quoted key';
      const raw = s.slice(i, end);
      parts.push(c === "'" ? raw.slice(1, -1) : decodeBasic(raw));
      i = end;
    } else {
      BARE.lastIndex = i;
      const m = BARE.exec(s);
      if (!m) return 'expected a key';
      parts.push(m[0]);
      i += m[0].length;
    }
    ws();
    if (s[i] !== '.') return { parts, next: i };
    i++;
  }
}

function decodeBasic(raw: string): string {
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.slice(1, -1); // a TOML-only escape (\e, \U…): compared as written
  }
}

/** A TOML basic string: quotes, backslashes and control characters escaped. */
export function tomlString(s: string): string {
  const named: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\n': '\\n', '\t': '\\t', '\r': '\\r', '\b': '\\b', '\f': '\\f' };
  return `"${s.replace(/["\\\u0000-\u001f\u007f]/g, (c) => named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

export function tomlKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k);
}
