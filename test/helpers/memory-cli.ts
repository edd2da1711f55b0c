/**
 * The memory commands as the memory tests drive them: through the CLI of a real daemon, each
 * checked for exit 0 and parsed from its `--json` output.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { DreamReport } from '../../src/api/dream.js';
import type { IngestSummary, Memory, RecallResponse } from '../../src/api/memory.js';
import type { TestDaemon } from './daemon.js';

export const DAY = 86_400_000;
/** Transcript time: `days` days before now (sessions happened; the clock moves on from there). */
export const ago = (days: number): string => new Date(Date.now() - days * DAY).toISOString();

/** A project directory (a git repository, as nightshift tells projects apart) named `name` in `dir`. */
export function project(dir: string, name: string): string {
  const p = join(dir, name);
  mkdirSync(join(p, '.git'), { recursive: true });
  return p;
}

async function json<T>(d: TestDaemon, args: string[]): Promise<T> {
  const r = await d.cli(args);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

/** Writes `text` to `file` and ingests it. */
export async function ingestText(d: TestDaemon, file: string, text: string, args: string[] = []): Promise<IngestSummary> {
  writeFileSync(file, text);
  return json(d, ['ingest', file, '--json', ...args]);
}

/** Writes a session as `<dir>/<name>.jsonl` and ingests it. */
export const ingest = (d: TestDaemon, s: { text(): string }, dir: string, name: string): Promise<IngestSummary> =>
  ingestText(d, join(dir, `${name}.jsonl`), s.text());

export const memories = (d: TestDaemon, dir: string, archived = false): Promise<Memory[]> =>
  json(d, ['memories', 'list', '--project', dir, '--json', ...(archived ? ['--archived'] : [])]);

export const recall = (d: TestDaemon, dir: string, query?: string): Promise<RecallResponse> =>
  json(d, ['recall', '--project', dir, '--json', ...(query === undefined ? [] : ['--query', query])]);

export const dream = (d: TestDaemon): Promise<DreamReport> => json(d, ['dream', '--json']);

export const has = (ms: readonly Memory[], re: RegExp): Memory[] => ms.filter((m) => re.test(m.content));
export const recalled = (r: RecallResponse, re: RegExp): boolean => r.items.some((i) => re.test(i.text));
