/**
 * The classes of mistakes real sessions exposed, each on a small excerpt written for the test,
 * through the CLI against a real daemon: scope, one-off vs standing, sources that were not read,
 * facts without trigger words, assistant guesses, subagent files, reinforcement and supersession,
 * paraphrases and near misses. What is kept is the fitted ranker's call (src/memory/rank/): the
 * excerpts say what a lasting statement says. The last block holds statements real sessions make
 * in few words, which a ranker that rewarded length left out.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import type { Memory } from '../../src/api/memory.js';
import { daemonsPerTest, tempDirsPerTest, TestDaemon } from '../helpers/daemon.js';
import { ingestText as ingest, memories, project, recall } from '../helpers/memory-cli.js';
import { ClaudeSession, codexRollout } from '../helpers/session-lines.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-classes-');

const texts = (ms: Memory[]) => ms.map((m) => m.content.toLowerCase());

/** The agent asks where to deploy (answered `answer`), one plan is approved, one rejected with `reason`. */
function askedSession(cwd: string, answer: string, reason: string): ClaudeSession {
  return new ClaudeSession({ sessionId: 'asked', cwd })
    .user('Build the donation page.')
    .toolUse('q1', 'AskUserQuestion', { questions: [{ question: 'Where should the app be deployed?', options: [{ label: 'Render' }, { label: 'Fly.io' }] }] })
    .toolResult(
      'q1',
      `User has answered your questions: "Where should the app be deployed?"="${answer}". You can now continue with the user's answers in mind.`,
    )
    .toolUse('p1', 'ExitPlanMode', {
      plan: '# Plan: Donation form with Stimulus tabs\n\n## Approach\n\nServer-rendered form, Stimulus for the tabs, no payment provider.\n',
    })
    .toolResult('p1', 'User has approved your plan. You can now start coding.')
    .toolUse('p2', 'ExitPlanMode', { plan: '# Plan: Add a Postgres service\n\n## Approach\n\nMove from SQLite to Postgres.\n' })
    .toolResult(
      'p2',
      `The user doesn't want to proceed with this tool use. The tool use was rejected. To tell you how to proceed, the user said:\n${reason}`,
      true,
    );
}

describe('real-session classes', () => {
  it('one-off requests about the current step are not kept; standing instructions are, in their project only', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const shop = project(dir, 'shop');
    const other = project(dir, 'other');
    const s = new ClaudeSession({ sessionId: 'one-off', cwd: shop })
      .user("Don't edit anything yet, I want to understand the code first.")
      .assistant('Understood, read-only for now.')
      .toolUse('r1', 'Read', { file_path: join(shop, 'lib/cart.rb') })
      .toolResult('r1', 'class Cart\n  def total = items.sum(&:price)\nend')
      .user('retry')
      .user('explain the tests')
      .assistant('The specs under spec/ cover the cart and the checkout.')
      .user('From now on, always run the linter before committing.')
      .user('Write the scripts in ruby from now on, unless another language fits a question better.');
    await ingest(d, join(dir, 'one-off.jsonl'), s.text());
    const kept = texts(await memories(d, shop));
    expect(kept.some((t) => t.includes('linter'))).toBe(true);
    expect(kept.some((t) => t.includes('ruby'))).toBe(true);
    expect(kept.some((t) => t.includes('edit anything') || t === 'retry.' || t.includes('explain the tests'))).toBe(false);
    // Task instructions belong to their project: another project recalls none of them.
    const elsewhere = await recall(d, other);
    expect(elsewhere.items.filter((i) => i.kind === 'memory')).toEqual([]);
  });

  it('keeps facts about the project stated without any trigger word', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const app = project(dir, 'notes');
    const s = new ClaudeSession({ sessionId: 'facts', cwd: app })
      .user('The desktop app is built with Tauri and Vue, and it talks to our own sync server.')
      .assistant('Thanks, that helps.')
      .user('Our sync server is written in Elixir with Phoenix and Ash, and it stores everything in SQLite.')
      .user('Our marketing site is hosted on Netlify and built from the docs folder of the main branch.')
      .toolUse('l1', 'Bash', { command: 'ls' })
      .toolResult('l1', 'src-tauri\nsrc\nserver\npackage.json')
      .user('looks good, thanks!');
    const out = await ingest(d, join(dir, 'facts.jsonl'), s.text());
    const kept = out.added.map((m) => m.content.toLowerCase());
    expect(kept.some((t) => t.includes('tauri'))).toBe(true);
    expect(kept.some((t) => t.includes('netlify'))).toBe(true);
    expect(kept.some((t) => t.includes('sqlite'))).toBe(true);
    expect(kept.some((t) => t.includes('thanks'))).toBe(false);
    for (const m of out.added) expect(m.scope).toBe('project');
  });

  it('reads answers given through AskUserQuestion and plans approved or rejected through ExitPlanMode', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const app = project(dir, 'donate');
    const s = askedSession(app, 'Render (the free tier is enough)', 'Keep SQLite: the free tier has no database add-on.');
    const out = await ingest(d, join(dir, 'asked.jsonl'), s.text());
    const kept = out.added.map((m) => m.content.toLowerCase());
    expect(kept.some((t) => t.includes('deployed') && t.includes('render'))).toBe(true);
    expect(kept.some((t) => t.includes('approved plan') && t.includes('stimulus'))).toBe(true);
    // The rejected plan is never kept as a plan; the reason it was rejected is, naming what it rejected.
    expect(kept.some((t) => t.includes('postgres service') && !t.startsWith('rejected'))).toBe(false);
    expect(kept.some((t) => t.startsWith('rejected') && t.includes('postgres service') && t.includes('keep sqlite'))).toBe(true);
  });

  it('reads compaction summaries by section: the stack and the lessons, not the pending work', async () => {
    const dir = tmp();
    // How many of a session's best are kept below the floor is a fitted operating point (2 or 3 as
    // the fit moves); this test is about which sections are read, so it keeps the three best.
    const weights = join(dir, 'weights.json');
    const fitted = JSON.parse(readFileSync(join(import.meta.dirname, '../../src/memory/rank/weights.json'), 'utf8')) as object;
    writeFileSync(weights, JSON.stringify({ ...fitted, sessionBest: 3 }));
    const d = new TestDaemon({}, { NIGHTSHIFT_RANKER_WEIGHTS: weights });
    onTestFinished(() => d.cleanup());
    await d.start();
    const app = project(dir, 'tracker');
    const summary = [
      'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.',
      '',
      'Summary:',
      '1. Primary Request and Intent:',
      '   The user asked to implement the annotations epic.',
      '2. Key Technical Concepts:',
      '   - Phoenix LiveView with the Ecto SQLite adapter',
      '   - Oban for background jobs',
      '3. Errors and fixes:',
      '   - **Migration used ALTER COLUMN, which SQLite does not support**: rewrote it with the table rebuild pattern.',
      '   - **Added the field before declaring it**: compile error, fixed by declaring it first.',
      '4. Problem Solving:',
      '   - Established that LiveView tests must use the shared sandbox mode so the LiveView process sees test data.',
      '5. Pending Tasks:',
      '   - Finish the review page and push.',
    ].join('\n');
    const s = new ClaudeSession({ sessionId: 'compacted', cwd: app }).compactSummary(summary).user('continue');
    const out = await ingest(d, join(dir, 'compacted.jsonl'), s.text());
    const kept = out.added.map((m) => m.content.toLowerCase());
    expect(kept.some((t) => t.includes('phoenix') || t.includes('sqlite adapter'))).toBe(true);
    expect(kept.some((t) => t.includes('sqlite does not support'))).toBe(true);
    expect(kept.some((t) => t.includes('shared sandbox'))).toBe(true);
    expect(kept.some((t) => t.includes('review page'))).toBe(false);
    expect(kept.some((t) => t.includes('declaring it'))).toBe(false);
  });

  it("reads Codex's compacted items", async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const app = project(dir, 'engine');
    const rollout = codexRollout({ id: 'codex-compacted', cwd: app }, [
      { role: 'user', text: 'Implement the plan.' },
      { compacted: 'The engine is a Rust workspace. Prices are fixed-point integers; floats never enter risk decisions.' },
    ]);
    const out = await ingest(d, join(dir, 'rollout.jsonl'), rollout);
    expect(out.format).toBe('codex');
    expect(out.added.some((m) => /fixed-point/i.test(m.content))).toBe(true);
  });

  it('keeps an assistant diagnosis only once the session verified it', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const app = project(dir, 'api');
    const s = new ClaudeSession({ sessionId: 'debug', cwd: app })
      .user('The tests fail on CI.')
      .assistant('The root cause is probably a stale cache; the problem might be the runner image.')
      .assistant('The root cause was the lockfile pinning an old driver. Fixed it by regenerating package-lock.json.')
      .toolUse('t1', 'Bash', { command: 'npm test' })
      .toolResult('t1', 'Tests: 42 passed, 42 total');
    const out = await ingest(d, join(dir, 'debug.jsonl'), s.text());
    const kept = out.added.map((m) => m.content.toLowerCase());
    expect(kept.some((t) => t.includes('lockfile'))).toBe(true);
    expect(kept.some((t) => t.includes('stale cache'))).toBe(false);
  });

  it("never takes a subagent's brief for the user's words, and files the sidechain under the parent session", async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const app = project(dir, 'site');
    const side = new ClaudeSession({ sessionId: 'parent-1', cwd: app, agentId: 'a12345' })
      .user('Always use tabs. Explore the project structure and report the routes.')
      .assistant('The routes are defined in router.ex.');
    const out = await ingest(d, join(dir, 'parent-1_subagents_agent-a12345.jsonl'), side.text());
    expect(out.sessionId).toBe('parent-1');
    expect(out.added).toEqual([]);
  });

  it('reinforcement never rewrites a memory; a change of value supersedes it, kept and restorable', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const app = project(dir, 'acme-api');
    const first = await ingest(
      d,
      join(dir, 's1.jsonl'),
      new ClaudeSession({ sessionId: 's1', cwd: app })
        .user('Set up the dev environment.')
        .toolUse('b1', 'Bash', { command: 'pnpm install' })
        .toolResult('b1', 'Packages: +412\nDone in 6.1s')
        .user('The acme-api repo always uses pnpm as its package manager.')
        .assistant('Noted: pnpm for every install and script.')
        .text(),
    );
    expect(first.added).toHaveLength(1);
    const pnpm = first.added[0];
    expect(pnpm?.content).toBe('The acme-api repo always uses pnpm as its package manager.');
    const second = await ingest(
      d,
      join(dir, 's2.jsonl'),
      new ClaudeSession({ sessionId: 's2', cwd: app, start: '2026-10-02T09:00:00.000Z' })
        .user('Add a script that runs the integration tests.')
        .user('Package manager for acme-api: always pnpm.')
        .assistant('Added "test:int" to package.json; run it with pnpm test:int.')
        .text(),
    );
    expect(second.added).toEqual([]);
    expect(second.reinforced.map((m) => m.id)).toEqual([pnpm?.id]);
    expect(second.reinforced[0]?.content).toBe(pnpm?.content); // the paraphrase did not rewrite it
    const third = await ingest(
      d,
      join(dir, 's3.jsonl'),
      new ClaudeSession({ sessionId: 's3', cwd: app, start: '2026-10-03T09:00:00.000Z' })
        .user('Use yarn instead of pnpm from now on.')
        .toolUse('b2', 'Bash', { command: 'rm pnpm-lock.yaml && yarn install' })
        .toolResult('b2', 'Done in 9.3s.')
        .text(),
    );
    expect(third.superseded.map((m) => m.id)).toEqual([pnpm?.id]);
    const archived = await memories(d, app, true);
    const old = archived.find((m) => m.id === pnpm?.id);
    expect(old?.content).toBe('The acme-api repo always uses pnpm as its package manager.');
    expect(old?.supersededBy).toBe(third.added[0]?.id);
    expect((await d.cli(['memories', 'restore', pnpm?.id ?? ''])).code).toBe(0);
    expect(texts(await memories(d, app)).some((t) => t.includes('pnpm as its package manager'))).toBe(true);
  });

  it('statements that differ in the one word that matters stay apart, at ingest and in the dream', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const ops = project(dir, 'ops');
    const s = new ClaudeSession({ sessionId: 'near', cwd: ops })
      .user('Never run the migration scripts against production on fridays.')
      .assistant('Understood.')
      .user('Always deploy the frontend app to the staging cluster in the eu region.')
      .user('Always deploy the backend app to the staging cluster in the eu region.');
    const first = await ingest(d, join(dir, 'near.jsonl'), s.text());
    expect(first.added).toHaveLength(3);
    const later = new ClaudeSession({ sessionId: 'near-2', cwd: ops, start: '2026-10-05T09:00:00.000Z' }).user(
      'Always run the migration scripts against production on fridays.',
    );
    const flip = await ingest(d, join(dir, 'near-2.jsonl'), later.text());
    // The opposite rule replaces the old one without touching its words.
    expect(flip.superseded).toHaveLength(1);
    expect(flip.superseded[0]?.content).toBe('Never run the migration scripts against production on fridays.');
    expect((await d.cli(['dream', '--json'])).code).toBe(0);
    const kept = texts(await memories(d, ops));
    expect(kept.filter((t) => t.includes('deploy the frontend app'))).toHaveLength(1);
    expect(kept.filter((t) => t.includes('deploy the backend app'))).toHaveLength(1);
  });

  it('does not crash on non-English sessions and still indexes them for search', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const app = project(dir, 'sticky');
    const s = new ClaudeSession({ sessionId: 'zh', cwd: app })
      .user('我想要可爱的橘子风格，然后可以选择颜色。')
      .assistant('好的，我会用橘子色作为默认主题。')
      .user('Udělej novou branch s názvem integrace.');
    await ingest(d, join(dir, 'zh.jsonl'), s.text());
    const found = await d.cli(['search', '橘子', '--project', app, '--json']);
    expect(found.code, found.stderr).toBe(0);
    expect(found.stdout).toContain('橘子');
  });
});

/**
 * What real sessions say in few words: terse facts, a preference without "always", a one-word
 * choice. Length is no evidence (rank/features.ts), so these are kept like the longer ones.
 */
describe('real-session classes said in few words', () => {
  it('keeps facts about the project said in a few words', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const app = project(dir, 'notes');
    const s = new ClaudeSession({ sessionId: 'terse', cwd: app })
      .user('The stack is Tauri + Vue.')
      .user('we deploy on Netlify')
      .user("it's an Elixir/Phoenix app on Ash with SQLite")
      .user('looks good, thanks!');
    const kept = (await ingest(d, join(dir, 'terse.jsonl'), s.text())).added.map((m) => m.content.toLowerCase());
    expect(kept.some((t) => t.includes('tauri'))).toBe(true);
    expect(kept.some((t) => t.includes('netlify'))).toBe(true);
    expect(kept.some((t) => t.includes('sqlite'))).toBe(true);
  });

  it('keeps a standing preference said without "always" or "from now on"', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const shop = project(dir, 'shop');
    const s = new ClaudeSession({ sessionId: 'prefs', cwd: shop })
      .user("Don't edit anything yet, I want to understand the code first.")
      .assistant('Understood, read-only for now.')
      .user('explain the tests')
      .user('Prefer ruby, but use another language if it fits a question better.');
    await ingest(d, join(dir, 'prefs.jsonl'), s.text());
    await ingest(d, join(dir, 'short.jsonl'), new ClaudeSession({ sessionId: 'short', cwd: shop }).user('I prefer short answers without bullet lists.').text());
    const kept = texts(await memories(d, shop));
    expect(kept.some((t) => t.includes('ruby'))).toBe(true);
    expect(kept.some((t) => t.includes('short answers'))).toBe(true);
  });

  it('keeps the option the person picked in AskUserQuestion', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const app = project(dir, 'donate');
    const out = await ingest(d, join(dir, 'asked.jsonl'), askedSession(app, 'Render', 'Keep SQLite.').text());
    expect(out.added.some((m) => /deployed\? → render\b/i.test(m.content))).toBe(true);
  });
});
