import { homedir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../errors.js';
import type { Invocation } from './command.js';
import { scanToml, tomlKey, tomlString, TomlSyntaxError, type TomlLine } from './toml.js';

const TABLE = ['mcp_servers', 'nightshift'];
export const CODEX_TABLE = '[mcp_servers.nightshift]';

/** `$CODEX_HOME`, by default `~/.codex`. */
export function codexHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.CODEX_HOME || join(env.HOME || homedir(), '.codex');
}

/** `$CODEX_HOME/config.toml`, by default `~/.codex/config.toml`. */
export function codexConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(codexHome(env), 'config.toml');
}

export function codexBlock(inv: Invocation): string[] {
  const lines = [
    CODEX_TABLE,
    '# added by `nightshift integrate codex`; remove with `nightshift integrate codex --uninstall`',
    `command = ${tomlString(inv.node)}`,
    `args = [${[inv.cli, 'mcp'].map(tomlString).join(', ')}]`,
  ];
  const env = Object.entries(inv.env);
  if (env.length > 0) lines.push(`env = { ${env.map(([k, v]) => `${tomlKey(k)} = ${tomlString(v)}`).join(', ')} }`);
  return lines;
}

export interface TextEdit {
  text: string;
  changes: string[];
}

const startsWith = (key: string[] | undefined, prefix: string[]) => key !== undefined && prefix.every((p, i) => key[i] === p);
const sameKey = (a: string[] | undefined, b: string[]) => a !== undefined && a.length === b.length && startsWith(a, b);

/** Line ranges [start, end) of the nightshift table and its sub-tables, without the blank and comment lines after them. */
function ourSections(lines: TomlLine[], file: string): [number, number][] {
  const ranges: [number, number][] = [];
  let inOurs = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (!l) continue;
    if (l.kind === 'header') {
      inOurs = startsWith(l.key, TABLE);
      if (inOurs && l.arrayTable) throw refuse(file, i, `[[${TABLE.join('.')}]] is an array of tables`);
      if (sameKey(l.key, ['mcp_servers']) && l.arrayTable) throw refuse(file, i, '[[mcp_servers]] is an array of tables');
      if (inOurs) {
        let end = i + 1;
        while (end < lines.length && lines[end]?.kind !== 'header') end++;
        while (end > i + 1 && (lines[end - 1]?.kind === 'blank' || lines[end - 1]?.kind === 'comment')) end--;
        ranges.push([i, end]);
      }
    } else if (l.kind === 'keyvalue' && !inOurs) {
      if (startsWith(l.key, TABLE)) throw refuse(file, i, `${TABLE.join('.')} is defined outside a ${CODEX_TABLE} table`);
      if (sameKey(l.key, ['mcp_servers'])) throw refuse(file, i, 'mcp_servers is an inline table, which cannot be extended');
    }
  }
  return ranges;
}

function refuse(file: string, index: number, what: string): AppError {
  return new AppError('config_invalid', `${file} line ${index + 1}: ${what}; nightshift cannot edit it safely. Edit it by hand, nothing was changed`);
}

function scan(text: string, file: string): TomlLine[] {
  try {
    return scanToml(text);
  } catch (err) {
    if (err instanceof TomlSyntaxError) throw new AppError('config_invalid', `${file} is not valid TOML (${err.message}); fix it first, nothing was changed`);
    throw err;
  }
}

const eolOf = (text: string) => (/\r\n/.test(text) ? '\r\n' : '\n');
const body = (l: TomlLine | undefined) => (l?.text ?? '').replace(/\r?\n$/, '');

/** Adds or rewrites the `[mcp_servers.nightshift]` table; every other line of the file stays byte for byte. */
export function installCodex(before: string | undefined, inv: Invocation, file: string): TextEdit {
  const text = before ?? '';
  const lines = scan(text, file);
  const sections = ourSections(lines, file);
  const eol = eolOf(text);
  const block = codexBlock(inv);
  const first = sections[0];
  if (!first) {
    let prefix = text;
    if (prefix !== '' && !prefix.endsWith('\n')) prefix += eol;
    if (prefix !== '') prefix += eol;
    return { text: prefix + block.map((l) => l + eol).join(''), changes: [`added ${CODEX_TABLE}`] };
  }
  const current = lines.slice(first[0], first[1]).map(body);
  if (sections.length === 1 && current.join('\n') === block.join('\n')) return { text: text, changes: [] };
  const lastEol = /\r?\n$/.exec(lines[first[1] - 1]?.text ?? '')?.[0] ?? '';
  const written = block.map((l, k) => l + (k < block.length - 1 || lastEol ? eol : '')).join('');
  return { text: withSections(lines, sections, (range) => (range === first ? written : undefined)), changes: [`updated ${CODEX_TABLE}`] };
}

/** Removes the `[mcp_servers.nightshift]` table (and sub-tables), and the blank line install put before it. */
export function uninstallCodex(before: string | undefined, file: string): TextEdit {
  if (before === undefined) return { text: '', changes: [] };
  const lines = scan(before, file);
  const sections = ourSections(lines, file);
  if (sections.length === 0) return { text: before, changes: [] };
  return { text: withSections(lines, sections, () => undefined), changes: [`removed ${CODEX_TABLE}`] };
}

/** The file with each of our sections replaced by what `put` gives it; where it gives nothing, removed. */
function withSections(lines: TomlLine[], sections: [number, number][], put: (range: [number, number]) => string | undefined): string {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const range = sections.find(([s, e]) => i >= s && i < e);
    if (!range) {
      out.push(lines[i]?.text ?? '');
      continue;
    }
    const text = put(range);
    if (text === undefined) dropBlankBefore(out, lines, range);
    else out.push(text);
    i = range[1] - 1;
  }
  return out.join('');
}

/** After a removed range, one blank line before it goes too when a blank line or the end of the file follows. */
function dropBlankBefore(out: string[], lines: TomlLine[], [start, end]: [number, number]): void {
  const prev = lines[start - 1];
  const next = lines[end];
  if (prev?.kind === 'blank' && (next === undefined || next.kind === 'blank') && out[out.length - 1] === prev.text) out.pop();
}
