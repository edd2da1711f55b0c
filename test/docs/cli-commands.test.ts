/**
 * Every command of the built CLI has its row in docs/, and every row names a real command. The
 * commands are read from `nightshift --help` and `nightshift <group> --help`, so a new command
 * fails here until it is documented.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli, stringEnv } from '../helpers/daemon.js';
import { allDocs, tableRows } from './markdown.js';

const env = { ...stringEnv(), NIGHTSHIFT_HOME: '/nonexistent/nightshift-docs', NIGHTSHIFT_NO_AUTOSTART: '1' };

interface Command {
  /** `['memories', 'list']`. */
  path: string[];
  aliases: string[];
  group: boolean;
}

/** At most 4 CLI processes at a time: each is a Node start on a shared machine. */
let running = 0;
const waiting: (() => void)[] = [];
async function help(path: string[]): Promise<string> {
  if (running >= 4) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return (await runCli([...path, '--help'], env)).stdout;
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** The commands under `path` (its own help's "Commands:" section), then theirs, a level at a time. */
async function commands(path: string[] = []): Promise<Command[]> {
  const text = await help(path);
  expect(text, `nightshift ${path.join(' ')} --help`).toMatch(/^Usage: nightshift/);
  const section = /\nCommands:\n([\s\S]*?)(?:\n\n|$)/.exec(text)?.[1] ?? '';
  const found = [...section.matchAll(/^ {2}([\w-]+)((?:\|[\w-]+)*)/gm)]
    .filter((m) => m[1] !== 'help')
    .map((m) => ({ path: [...path, m[1] as string], aliases: (m[2] as string).split('|').filter(Boolean) }));
  const below = await Promise.all(found.map((c) => commands(c.path)));
  return found.flatMap((c, i) => {
    const sub = below[i] as Command[];
    return [{ ...c, group: sub.length > 0 }, ...sub];
  });
}

/**
 * The command a documented row names: the words after `nightshift` in its first cell, up to the
 * first argument or option (`ID`, `[--json]`, `"CRON"`, `--`). `remove\|rm` is a name and its alias.
 */
function documented(): { path: string[]; aliases: string[]; cell: string }[] {
  return allDocs().flatMap((doc) =>
    tableRows(doc)
      .map((cells) => cells[0] ?? '')
      .filter((cell) => cell.startsWith('`nightshift '))
      .map((cell) => {
        const words = cell.slice(1, cell.indexOf('`', 1)).split(' ').slice(1);
        const end = words.findIndex((w) => !/^[a-z][a-z-]*(\\\|[a-z][a-z-]*)*$/.test(w));
        const names = end < 0 ? words : words.slice(0, end);
        return {
          path: names.map((w) => w.split('\\|')[0] as string),
          aliases: names.at(-1)?.split('\\|').slice(1) ?? [],
          cell,
        };
      }),
  );
}

describe('the CLI reference (docs/)', () => {
  let all: Command[] = [];
  beforeAll(async () => {
    all = await commands();
  }, 180_000);

  it('finds the commands in --help', () => {
    const names = all.map((c) => c.path.join(' '));
    for (const n of ['run', 'memories list', 'schedule remove', 'monitor add mcp', 'hook session-end', 'integrate codex']) expect(names).toContain(n);
    expect(all.length).toBeGreaterThan(60);
  });

  it('has a row for every command (a group: for each of its commands), with its aliases', () => {
    const rows = documented();
    const missing = all
      .filter((c) => !c.group)
      .filter((c) => !rows.some((r) => r.path.join(' ') === c.path.join(' ') && r.aliases.join('|') === c.aliases.join('|')))
      .map((c) => `nightshift ${c.path.join(' ')}${c.aliases.length ? ` (alias ${c.aliases.join(', ')})` : ''}`);
    expect(missing).toEqual([]);
    const groups = all.filter((c) => c.group && !rows.some((r) => r.path.join(' ').startsWith(`${c.path.join(' ')} `)));
    expect(groups.map((c) => c.path.join(' '))).toEqual([]);
  });

  it('names only commands that exist', () => {
    const real = new Set(all.map((c) => c.path.join(' ')));
    expect(documented().filter((r) => !real.has(r.path.join(' ')))).toEqual([]);
  });
});
