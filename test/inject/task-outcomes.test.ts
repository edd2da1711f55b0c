/** A task's outcome as an agent is told of it: its label and last lines never hold a secret, even one cut or broken across lines. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Outcome } from '../../src/api/task-outcome.js';
import { OUTCOME_KINDS, OUTCOMES } from '../../src/api/task-status.js';
import type { Task } from '../../src/api/tasks.js';
import { lastLines, outcomeOf } from '../../src/inject/task-outcomes.js';
import { tempDirsPerTest } from '../helpers/daemon.js';
import { B64URL, j, Seeded } from '../fixtures/secrets/random.js';

const tmp = tempDirsPerTest(afterEach, 'ns-outcomes-');
const r = new Seeded(0x7a5c);
const KEY = j('-', 'sk', 'ant', 'api03', r.key(95, B64URL));
const PW = `pg${r.key(12)}`;

/** A finished task as the daemon keeps it, with what the outcome line needs. */
function finished(outcome: Outcome, outputPath: string): Task {
  const at = '2026-01-01T00:00:00.000Z';
  return { id: 't9', state: 'finished', outcome, command: ['make'], cwd: '/srv', outputPath, startedAt: at, endedAt: at } as unknown as Task;
}

describe('task outcome wording', () => {
  it("words every ending by the outcome table's told column", async () => {
    const none = join(tmp(), 'none.log');
    const told = async (o: Outcome): Promise<string> => (await outcomeOf(finished(o, none))).outcome;
    expect(await told({ kind: 'exited', exitCode: 0 })).toBe('succeeded');
    expect(await told({ kind: 'exited', exitCode: 3 })).toBe('failed: exit 3');
    expect(await told({ kind: 'killed', signal: 'SIGTERM', exitCode: 143, reason: 'by you' })).toBe('killed by SIGTERM (by you)');
    expect(await told({ kind: 'timed_out', reason: 'ran past 5s' })).toBe('ran past 5s');
    expect(await told({ kind: 'lost', reason: 'gone' })).toBe('lost: gone');
    for (const kind of OUTCOME_KINDS) expect(typeof OUTCOMES[kind].told).toBe('function');
  });
});

describe('task outcome lines', () => {
  it('shows the last lines of the tail only, never the line it cuts into', async () => {
    const file = join(tmp(), 'output.log');
    writeFileSync(file, `${'x'.repeat(5000)}\nlast but one\nlast\n`);
    expect(await lastLines(file, 3)).toEqual(['last but one', 'last']);
  });

  it('mask a key broken across two lines of output, in both halves', async () => {
    const file = join(tmp(), 'output.log');
    writeFileSync(file, `starting\nkey: ${KEY.slice(0, 50)}\n${KEY.slice(50)}\ndone\n`);
    const lines = await lastLines(file, 3);
    expect(lines).toEqual(['key: [REDACTED:anthropic_key]', '[REDACTED:anthropic_key]', 'done']);
  });

  it('mask a secret in a label before cutting it to its length', async () => {
    const command = ['sh', '-c', `cd /srv/billing/services/invoices-worker && export PGPASSWORD=${PW} && psql -h db -f migrate.sql`];
    const t = { id: 't1', state: 'queued', command, cwd: '/srv', outputPath: join(tmp(), 'none.log') } as unknown as Task;
    const o = await outcomeOf(t);
    expect(o.label).not.toContain(PW.slice(0, 6));
    expect(o.label.length).toBeLessThanOrEqual(80);
  });
});
