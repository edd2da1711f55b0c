/**
 * Personal data, end to end: sessions where the person gives an email address, a phone number and
 * a screenshot under /home/NAME are ingested by a real daemon; none of it comes out of `memories
 * list`, `recall`, `search` or `sessions show`, nor sits in a state file, while what the sessions
 * said around it is kept (masked), and the screenshot pointer is no memory at all.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../src/api/memory.js';
import { daemonsPerTest, tempDirsPerTest } from '../helpers/daemon.js';
import { ago, ingest, project } from '../helpers/memory-cli.js';
import { ClaudeSession } from '../helpers/session-lines.js';
import { filesUnder } from '../helpers/files-under.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-personal-');

const NAME = 'okonkwo';
const EMAIL = 'adaeze.okonkwo@ridgeway-analytics.com';
const PHONE = '+44 7911 123456';
const NATIONAL = '(646) 555-0199';
const SHOT = `/home/${NAME}/Downloads/Screenshot 2026-11-20 at 14.02.11.png`;
const VALUES = [EMAIL, PHONE, NATIONAL, `/home/${NAME}`, 'adaeze.okonkwo', '7911 123456', '555-0199'];

describe('personal data, end to end', () => {
  it('no email, phone number or account name comes out of any surface, and the screenshot pointer is not kept', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const repo = project(dir, 'churn-model');
    const first = new ClaudeSession({ sessionId: 'pers-1', cwd: repo, start: ago(2) })
      .user(`The nightly export must always be mailed to ${EMAIL} as a CSV attachment, never as a link.`)
      .assistant('Understood: the nightly export goes out as a CSV attachment.')
      .user(`If the training job fails overnight, always text me on ${PHONE} before retrying it.`)
      .assistant('Noted.')
      .user(`Look at ${SHOT}`)
      .assistant('The legend overlaps the x axis in the screenshot; I will move it.')
      .toolUse('pers-1-e1', 'Edit', { file_path: `/home/${NAME}/src/churn-model/plots/curves.py`, old_string: 'loc="lower"', new_string: 'loc="upper right"' })
      .toolResult('pers-1-e1', 'The file has been updated successfully.')
      .user('We always plot the retention curves with a log scale on the y axis.')
      .user(`The screenshot of the broken dashboard is saved at /home/${NAME}/Desktop/Screen Shot 2026-11-21 at 09.12.40.png for the record.`)
      .user(`I always keep the raw export in /home/${NAME}/Downloads/churn-raw.csv`);
    const second = new ClaudeSession({ sessionId: 'pers-2', cwd: repo, start: ago(1) })
      .user(`my phone number is ${NATIONAL}`)
      .assistant('Thanks.')
      .user(`You can reach me at ${EMAIL}`)
      .assistant('Noted.')
      .user('The feature store snapshots are always taken before the weekly retrain.');
    await ingest(d, first, dir, 'pers-1');
    await ingest(d, second, dir, 'pers-2');

    const outputs: Record<string, string> = {};
    const run = async (label: string, args: string[]) => {
      const res = await d.cli(args);
      expect(res.code, `${label}: ${res.stderr}`).toBe(0);
      outputs[label] = res.stdout + res.stderr;
    };
    await run('memories list', ['memories', 'list', '--project', repo, '--json']);
    await run('recall', ['recall', '--project', repo, '--json']);
    await run('recall query', ['recall', '--project', repo, '--query', 'nightly export mailed text training job fails', '--json']);
    await run('search email', ['search', 'nightly', 'export', 'mailed', '--json']);
    await run('search phone', ['search', 'text', 'me', 'training', 'job', '--json']);
    await run('search screenshot', ['search', 'screenshot', 'Downloads', '--json']);
    await run('sessions show 1', ['sessions', 'show', 'pers-1', '--json']);
    await run('sessions show 2', ['sessions', 'show', 'pers-2', '--json']);

    // What was said around the personal data is kept, masked: an empty answer cannot pass for a clean one.
    const list = JSON.parse(outputs['memories list'] ?? '[]') as Memory[];
    const contents = list.map((m) => m.content);
    expect(contents.join('\n')).toContain('mailed to [REDACTED:email] as a CSV attachment');
    expect(contents.join('\n')).toContain('text me on [REDACTED:phone] before retrying');
    expect(contents.some((c) => /log scale/.test(c))).toBe(true);
    expect(outputs['search email']).toContain('[REDACTED:email]');
    expect(outputs['search screenshot']).toContain(`/home/[REDACTED:user]/Downloads/Screenshot`);
    // Only personal data, or a pointer at a screenshot: no memory. A standing habit about a download folder stands, masked.
    expect(contents.filter((c) => /Screen ?shot/i.test(c))).toEqual([]);
    expect(contents).toContain('I always keep the raw export in /home/[REDACTED:user]/Downloads/churn-raw.csv.');
    expect(contents.filter((c) => /^(?:my phone number is|You can reach me at) \[REDACTED/.test(c))).toEqual([]);

    const found: Record<string, string[]> = {};
    const check = (where: string, out: string) => {
      const leaked = VALUES.filter((v) => out.includes(v));
      if (leaked.length > 0) found[where] = leaked;
    };
    for (const [label, out] of Object.entries(outputs)) check(label, out);
    // Transcripts themselves are the person's files, not nightshift's state.
    for (const path of filesUnder(d.home)) check(path.slice(d.home.length), readFileSync(path, 'utf8'));
    expect(found).toEqual({});
  });
});
