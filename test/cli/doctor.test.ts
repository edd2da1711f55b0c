import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DoctorResponse } from '../../src/api/model-usage.js';
import { TestDaemon, tempDirsPerTest } from '../helpers/daemon.js';

const tmp = tempDirsPerTest(afterEach, 'ns-doctor-');
const daemons: TestDaemon[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.cleanup()));
});

/** A daemon whose PATH is `bin` and the system's own directories (no agent CLI of the machine). */
function daemonWith(config: Record<string, unknown>, bin: string): TestDaemon {
  const d = new TestDaemon({ transcripts: { watch: false }, ...config }, { PATH: `${bin}:/usr/bin:/bin` });
  daemons.push(d);
  return d;
}

type Doctor = DoctorResponse & { ok: boolean; daemon: { running: boolean; problem?: string } };

describe('nightshift doctor', () => {
  it('finds an agent CLI on the daemon’s PATH and reads its version; one not there is no problem when not configured', async () => {
    const bin = tmp();
    // A claude whose --help lists the essential flags and one optional: usable, without the others.
    const help = '  -p, --print  print\n  --output-format <format>\n  --model <model>\n  --json-schema <schema>\n';
    writeFileSync(join(bin, 'claude'), `#!/bin/sh\nif [ "$1" = --help ]; then printf '${help}'; else echo "2.1.7 (Claude Code)"; fi\n`);
    chmodSync(join(bin, 'claude'), 0o755);
    const d = daemonWith({}, bin);
    await d.start();
    const r = await d.cli(['doctor', '--json']);
    expect(r.code, r.stdout).toBe(0);
    const doc = JSON.parse(r.stdout) as Doctor;
    expect(doc.checks.find((c) => c.name === 'claude')).toEqual({
      name: 'claude',
      ok: true,
      detail: `${join(bin, 'claude')}: 2.1.7; this version lacks --tools, --system-prompt, --no-session-persistence, --setting-sources, --settings, --max-budget-usd (called without them)`,
      blocking: false,
    });
    expect(doc.checks.find((c) => c.name === 'codex')).toMatchObject({ ok: false, blocking: false });
    expect(doc.extractor).toEqual({ configured: 'auto', active: 'heuristic', why: expect.stringContaining('none of ANTHROPIC_API_KEY') });
    expect((await d.cli(['doctor'])).stdout).toMatch(/ok {4}claude: .*2\.1\.7/);
  });

  it('exits 1 when what is configured cannot work: a model extractor with no credentials, a reviewer that is not there', async () => {
    const d = daemonWith({ memory: { extractor: 'anthropic' }, dream: { reviewer: 'codex-cli' } }, tmp());
    await d.start();
    const r = await d.cli(['doctor', '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as Doctor;
    expect(doc.checks.filter((c) => !c.ok && c.blocking).map((c) => c.name)).toEqual(['memory extractor', 'dream reviewer', 'codex']);
    expect(doc.reviewer).toMatchObject({ configured: 'codex-cli', active: 'heuristic' });
    const text = await d.cli(['doctor']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('FAIL  memory extractor: anthropic is configured but unavailable');
    expect(text.stdout).toContain('something configured cannot work');
  });

  it('a claude without the flags a headless call needs cannot be used: the check fails and says to update, blocking when configured', async () => {
    const bin = tmp();
    writeFileSync(join(bin, 'claude'), `#!/bin/sh\nif [ "$1" = --help ]; then echo '  -p, --print'; else echo "1.0.2 (Claude Code)"; fi\n`);
    chmodSync(join(bin, 'claude'), 0o755);
    const d = daemonWith({ memory: { extractor: 'claude-cli' } }, bin);
    await d.start();
    const r = await d.cli(['doctor', '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as Doctor;
    expect(doc.checks.find((c) => c.name === 'claude')).toMatchObject({
      ok: false,
      blocking: true,
      detail: expect.stringContaining('lacks --output-format, --model: update Claude Code'),
    });
  });

  it('exits 1 when no daemon answers, saying so', async () => {
    const d = daemonWith({}, tmp()); // never started; autostart off
    const r = await d.cli(['doctor']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('daemon:    not answering');
  });
});
