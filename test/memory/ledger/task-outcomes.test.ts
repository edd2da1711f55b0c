/** A task's outcome as an agent is told of it: its label and last lines never hold a secret, even one cut or broken across lines. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Task } from '../../../src/api/tasks.js';
import { lastLines, outcomeOf } from '../../../src/memory/ledger/task-outcomes.js';
import { tempDirsPerTest } from '../../helpers/daemon.js';
import { B64URL, j, Seeded } from '../../fixtures/secrets/random.js';

const tmp = tempDirsPerTest(afterEach, 'ns-outcomes-');
const r = new Seeded(0x7a5c);
const KEY = j('-', 'sk', 'ant', 'api03', r.key(95, B64URL));
const PW = `pg${r.key(12)}`;

describe('task outcome lines', () => {
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
