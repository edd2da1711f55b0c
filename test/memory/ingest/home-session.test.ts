/**
 * A session started in the home directory is no project's: through the CLI of a real daemon whose
 * HOME is a temp directory, its rules land in the user scope with less confidence (lower importance,
 * not stable), recall for the home directory has no project section, a later session in a project
 * still gets the rule below that project's own rules, and a repository below HOME is its own project.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { IngestSummary, Memory, RecallResponse } from '../../../src/api/memory.js';
import { tempDirsPerTest, TestDaemon } from '../../helpers/daemon.js';
import { ago, ingest, project } from '../../helpers/memory-cli.js';
import { ClaudeSession } from '../../helpers/session-lines.js';

const daemons: TestDaemon[] = [];
afterEach(async () => {
  await Promise.all(daemons.splice(0).map((d) => d.cleanup()));
});
/** A daemon whose HOME (what it takes for the home directory) is `home`. */
/**
 * The fitted weights with no floor: what is under test is where a statement made at home goes and
 * that it ranks below the same statement made in a project, not whether this one statement clears
 * the fitted floor after three days of decay.
 */
function noFloor(dir: string): string {
  const file = join(dir, 'weights.json');
  writeFileSync(file, JSON.stringify({ ...(JSON.parse(readFileSync(WEIGHTS, 'utf8')) as object), floor: -1 }));
  return file;
}
const WEIGHTS = join(import.meta.dirname, '../../../src/memory/rank/weights.json');

function newDaemon(home: string): TestDaemon {
  const d = new TestDaemon({}, { HOME: home, NIGHTSHIFT_RANKER_WEIGHTS: noFloor(dirname(home)) });
  daemons.push(d);
  return d;
}
const tmp = tempDirsPerTest(afterEach, 'ns-home-');

async function json<T>(d: TestDaemon, args: string[]): Promise<T> {
  const r = await d.cli(args);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as T;
}

const FORMAT_RULE = /run the formatter before every commit/;
const TESTS_RULE = /integration tests against the staging database/;
const BACKUP_RULE = /backup script in this folder must never delete/;

describe('a session started in the home directory', () => {
  it('puts its rules in the user scope at lower importance, and recall for HOME has no project section', async () => {
    const dir = tmp();
    const home = join(dir, 'home');
    mkdirSync(home);
    const d = newDaemon(home);
    await d.start();
    const inHome = new ClaudeSession({ sessionId: 'home-1', cwd: home, start: ago(3) })
      .user('Which of my repos have uncommitted changes? Just list them.')
      .assistant('api-gateway and dotfiles have uncommitted changes.')
      .user('Always run the formatter before every commit, in any repo.')
      .assistant('Understood.')
      .user('The backup script in this folder must never delete anything older than a week.');
    const summary: IngestSummary = await ingest(d, inHome, dir, 'home-1');
    expect(summary.project).toBeNull();

    const billing = project(dir, 'billing');
    const inBilling = new ClaudeSession({ sessionId: 'billing-1', cwd: billing, start: ago(2) })
      .user('The invoice totals are off by a cent, please look.')
      .assistant('The rounding happens per line; I will round once on the total.')
      .user('We always run the integration tests against the staging database before merging.')
      .assistant('Noted.')
      .user('The backup script in this folder must never delete anything older than a week.');
    expect((await ingest(d, inBilling, dir, 'billing-1')).project).toBe(billing);

    // Nothing was stored as the home directory's project; the home rule is the user's, held loosely.
    const exported = await d.cli(['memories', 'export']);
    expect(exported.code, exported.stderr).toBe(0);
    const all = exported.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Memory);
    expect(all.filter((m) => m.project === home)).toEqual([]);
    expect(all.find((m) => FORMAT_RULE.test(m.content))).toMatchObject({ scope: 'user', stable: false });
    expect(all.find((m) => TESTS_RULE.test(m.content))).toMatchObject({ scope: 'project', project: billing });
    // The same rule said at home and in a project: at home it is the user's, held more loosely.
    const backup = all.filter((m) => BACKUP_RULE.test(m.content));
    const homeRule = backup.find((m) => m.scope === 'user');
    const billingRule = backup.find((m) => m.scope === 'project' && m.project === billing);
    expect(homeRule).toMatchObject({ stable: false });
    expect(billingRule).toBeDefined();
    expect(homeRule?.importance ?? 1).toBeLessThan(billingRule?.importance ?? 0);

    // Recall in HOME: the user's memories only, no project section.
    const atHome = await json<RecallResponse>(d, ['recall', '--project', home, '--json']);
    expect(atHome.project).toBeNull();
    expect(atHome.items.some((i) => FORMAT_RULE.test(i.text))).toBe(true);
    expect(atHome.items.filter((i) => i.scope === 'project' || i.kind === 'digest')).toEqual([]);
    const hook = await d.cli(['recall', '--project', home, '--format', 'markdown']);
    expect(hook.code, hook.stderr).toBe(0);
    expect(hook.stdout).not.toMatch(/Current state of|Recent sessions here/);

    // Another project still gets the home rule, below its own.
    const atBilling = await json<RecallResponse>(d, ['recall', '--project', billing, '--json']);
    const own = atBilling.items.find((i) => TESTS_RULE.test(i.text));
    const fromHome = atBilling.items.find((i) => FORMAT_RULE.test(i.text));
    expect(fromHome?.scope).toBe('user');
    expect(own?.score ?? 0).toBeGreaterThan(fromHome?.score ?? 1);

    // `remember` in the home directory (its default project is the current directory) is the user's.
    const kept = await json<Memory>(d, ['remember', '--project', home, '--json', 'Prefer British spelling in prose.']);
    expect(kept).toMatchObject({ scope: 'user' });
    expect(kept.project).toBeUndefined();
  });

  it('a repository below HOME is its own project', async () => {
    const dir = tmp();
    const home = join(dir, 'home');
    const repo = project(home, 'garden-planner');
    const d = newDaemon(home);
    await d.start();
    const s = new ClaudeSession({ sessionId: 'repo-1', cwd: join(repo, 'src'), start: ago(1) })
      .user('The planting calendar must always be computed in the garden’s own time zone.')
      .assistant('Understood.');
    expect((await ingest(d, s, dir, 'repo-1')).project).toBe(repo);
    const r = await json<RecallResponse>(d, ['recall', '--project', repo, '--json']);
    expect(r.project).toBe(repo);
    expect(r.items.some((i) => i.scope === 'project' && /planting calendar/.test(i.text))).toBe(true);
  });
});
