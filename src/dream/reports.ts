/** Dream reports: one JSON file each under `<state>/dreams/`, listed newest first. */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DreamReport } from '../api/dream.js';
import { AppError, isErrno } from '../errors.js';
import { writeFileAtomic } from '../sys/atomic-file.js';

export function newDreamId(at: Date): string {
  // Milliseconds included: ids sort in the order dreams started.
  const stamp = at.toISOString().replace(/[-:.]/g, '').slice(0, 18);
  return `d${stamp}-${randomBytes(2).toString('hex')}`;
}

export class DreamReports {
  constructor(private readonly dir: string) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  }

  async save(report: DreamReport): Promise<void> {
    await writeFileAtomic(join(this.dir, `${report.id}.json`), JSON.stringify(report, null, 1));
  }

  /** Takes back a report whose dream was not applied after all. */
  async remove(id: string): Promise<void> {
    await rm(join(this.dir, `${id}.json`), { force: true });
  }

  get(id: string): DreamReport {
    try {
      return DreamReport.parse(JSON.parse(readFileSync(join(this.dir, `${id}.json`), 'utf8')));
    } catch (err) {
      if (isErrno(err, 'ENOENT')) throw new AppError('not_found', `no dream ${id} (see \`nightshift dream log\`)`);
      throw new AppError('internal', `dream report ${id} is unreadable: ${(err as Error).message}`);
    }
  }

  /** Newest first; unreadable files are skipped. */
  list(): DreamReport[] {
    const out: DreamReport[] = [];
    for (const f of readdirSync(this.dir)
      .filter((x) => x.endsWith('.json'))
      .sort()
      .reverse()) {
      try {
        out.push(DreamReport.parse(JSON.parse(readFileSync(join(this.dir, f), 'utf8'))));
      } catch {
        // a foreign or torn file: not a report
      }
    }
    return out;
  }

  /** When the last real (not dry-run, completed) dream started. */
  lastDream(): string | null {
    return this.list().find((r) => !r.dryRun && r.error === undefined)?.startedAt ?? null;
  }
}
