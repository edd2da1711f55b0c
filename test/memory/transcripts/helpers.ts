import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';

export function fixture(name: string): string {
  return fileURLToPath(new URL(`../../fakes/transcripts/${name}`, import.meta.url));
}

/** A temp dir removed after the file's tests. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `ns-${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** One JSONL line. */
export function jsonl(...values: unknown[]): string {
  return values.map((v) => `${JSON.stringify(v)}\n`).join('');
}
