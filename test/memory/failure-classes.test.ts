/**
 * Each failure class real sessions showed, on small excerpts written for the test (each
 * stands for its class), through the CLI against a real daemon: scope, truncation, a question
 * without its answer, a reversed request kept as a rule, negation, supersession across sessions,
 * time words in a plan, identity facts and terse rules dropped, pasted specs, wrong labels and
 * what the prompt hook injects.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonsPerTest, tempDirsPerTest, type TestDaemon } from '../helpers/daemon.js';
import { ago, DAY, dream, has, ingest, memories, project, recall, recalled } from '../helpers/memory-cli.js';
import { ClaudeSession } from '../helpers/session-lines.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-fail-');

/** Claude Code's result for a call the person rejected with a reason. */
const REJECTED_SAYING =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\n";
/** The prompt hook gives up after 150 ms by default; a loaded test machine may take longer. */
const PATIENT = { NIGHTSHIFT_PROMPT_HOOK_TIMEOUT_MS: '10000' };

/** `hook user-prompt-submit` as Claude Code runs it: what it adds to the prompt ('' for nothing). */
async function promptHook(d: TestDaemon, cwd: string, sessionId: string, prompt: string): Promise<string> {
  const input = JSON.stringify({ session_id: sessionId, transcript_path: join(cwd, `${sessionId}.jsonl`), cwd, hook_event_name: 'UserPromptSubmit', prompt });
  const r = await d.cli(['hook', 'user-prompt-submit'], { input, env: PATIENT });
  expect(r.code, r.stderr).toBe(0);
  if (r.stdout.trim() === '') return '';
  const out = JSON.parse(r.stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  expect(out.hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
  return out.hookSpecificOutput.additionalContext;
}

/**
 * A session of the orders service around what the person says in it: a bug to fix (a one-off
 * request), the agent's reading and edit, the statements, a test run, and a closing one-off request
 * ("commit it and open a PR").
 */
function ordersSession(id: string, cwd: string, start: string, statements: string[]): ClaudeSession {
  const s = new ClaudeSession({ sessionId: id, cwd, start })
    .user('The /orders endpoint returns 500 when the cart is empty, can you fix it?')
    .assistant('The handler reads cart.items[0] without checking the length. I will add a guard and a test for the empty cart.')
    .toolUse(`${id}-r1`, 'Read', { file_path: `${cwd}/internal/orders/handler.go` })
    .toolResult(`${id}-r1`, 'func (h *Handler) Create(ctx context.Context, req *pb.CreateOrder) (*pb.Order, error) {\n\tfirst := req.Cart.Items[0]\n')
    .toolUse(`${id}-e1`, 'Edit', {
      file_path: `${cwd}/internal/orders/handler.go`,
      old_string: 'first := req.Cart.Items[0]',
      new_string: 'if len(req.Cart.Items) == 0 {\n\t\treturn nil, status.Error(codes.InvalidArgument, "empty cart")\n\t}\n\tfirst := req.Cart.Items[0]',
    })
    .toolResult(`${id}-e1`, 'The file has been updated successfully.');
  for (const t of statements) s.user(t).assistant('Noted.');
  return s
    .toolUse(`${id}-b1`, 'Bash', { command: 'go test ./...' })
    .toolResult(`${id}-b1`, 'ok  \tgithub.com/acme/orders/internal/orders\t0.41s')
    .user('now commit it and open a PR with a short description')
    .toolUse(`${id}-b2`, 'Bash', { command: 'git commit -am "Reject empty carts" && gh pr create --fill' })
    .toolResult(`${id}-b2`, 'https://github.com/acme/orders/pull/87')
    .assistant('Committed and opened https://github.com/acme/orders/pull/87.');
}

describe('failure classes', () => {
  describe('1. scope', () => {
    it("(a) a first-person want about the project's own feature is the project's, and not recalled in another project", async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const alerts = project(dir, 'alerts');
      const billing = project(dir, 'billing');
      const s = new ClaudeSession({ sessionId: 'alerts-1', cwd: alerts, start: ago(3) })
        .user('The deploy alert in #ops fired twice last night for the same deploy, can you find out why?')
        .assistant('The Slack notifier retries on a 5xx from Slack without checking whether the first post went through. I will make the retry idempotent.')
        .toolUse('r1', 'Read', { file_path: `${alerts}/src/notify/slack.ts` })
        .toolResult('r1', 'export async function postAlert(text: string) {\n  return retry(() => slack.post(text));\n}')
        .toolUse('e1', 'Edit', { file_path: `${alerts}/src/notify/slack.ts`, old_string: 'slack.post(text)', new_string: 'slack.post(text, { dedupeKey })' })
        .toolResult('e1', 'The file has been updated successfully.')
        .user('I want the Slack alerts in German from now on.')
        .assistant('Sure. The alert texts are now in src/notify/messages.de.ts and the notifier posts the German texts.')
        .toolUse('w1', 'Write', { file_path: `${alerts}/src/notify/messages.de.ts`, content: "export const deployFailed = 'Deployment fehlgeschlagen';\n" })
        .toolResult('w1', 'File created successfully.')
        .toolUse('b1', 'Bash', { command: 'npm test' })
        .toolResult('b1', 'Tests: 31 passed, 31 total')
        .user('looks good, commit it');
      await ingest(d, s, dir, 'alerts-1');
      const german = has(await memories(d, alerts), /German/);
      expect(german).toHaveLength(1);
      expect(german[0]).toMatchObject({ scope: 'project', project: alerts });
      expect(recalled(await recall(d, alerts), /German/)).toBe(true);
      expect(recalled(await recall(d, billing), /German/)).toBe(false);
      expect(await promptHook(d, billing, 'billing-now', 'send the Slack alerts for failed invoices in German too')).not.toMatch(/German/);
    });

    // Class 1 (and 8): the bare want, without "from now on".
    it('(a) the bare want "I want the Slack alerts in German." is kept, as the project\'s', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const alerts = project(dir, 'alerts');
      const s = new ClaudeSession({ sessionId: 'alerts-2', cwd: alerts, start: ago(3) })
        .user('The deploy alert in #ops fired twice last night for the same deploy, can you find out why?')
        .assistant('The Slack notifier retries on a 5xx from Slack without checking whether the first post went through. I will make the retry idempotent.')
        .toolUse('e1', 'Edit', { file_path: `${alerts}/src/notify/slack.ts`, old_string: 'slack.post(text)', new_string: 'slack.post(text, { dedupeKey })' })
        .toolResult('e1', 'The file has been updated successfully.')
        .user('I want the Slack alerts in German.')
        .assistant('Sure. The alert texts are now in src/notify/messages.de.ts and the notifier posts the German texts.')
        .toolUse('b1', 'Bash', { command: 'npm test' })
        .toolResult('b1', 'Tests: 31 passed, 31 total')
        .user('looks good, commit it');
      await ingest(d, s, dir, 'alerts-2');
      expect(has(await memories(d, alerts), /German/).map((m) => m.scope)).toEqual(['project']);
    });

    it("(b) a rule about the project's docs said in project A is not recalled in project B", async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const site = project(dir, 'site');
      const shop = project(dir, 'shop');
      const s = new ClaudeSession({ sessionId: 'site-1', cwd: site, start: ago(4) })
        .user('Add a page to the docs about the new webhook retries.')
        .assistant('I added docs/webhooks/retries.md describing the backoff schedule, with a table of the delays.')
        .toolUse('w1', 'Write', {
          file_path: `${site}/docs/webhooks/retries.md`,
          content: '# Webhook retries\n\nFailed deliveries are retried on 12/03/2026 ...\n',
        })
        .toolResult('w1', 'File created successfully.')
        .user('In the docs, always write dates as ISO 8601.')
        .assistant('Fixed: the page now says 2026-03-12, and I checked the other pages for dates.')
        .toolUse('b1', 'Bash', { command: 'npm run docs:build' })
        .toolResult('b1', 'built 48 pages in 2.1s')
        .user('great');
      await ingest(d, s, dir, 'site-1');
      expect(recalled(await recall(d, site), /ISO 8601/)).toBe(true);
      expect(recalled(await recall(d, shop), /ISO 8601/)).toBe(false);
      expect(await promptHook(d, shop, 'shop-now', 'write the release dates in the docs as dates')).not.toMatch(/ISO 8601/);
    });

    it("(c) a general first-person preference may be the user's; a standing rule said in two projects is promoted to user scope", async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const orders = project(dir, 'orders');
      const site = project(dir, 'site');
      const other = project(dir, 'other');
      const lint = 'Always run the linter before committing, and fix the warnings rather than silencing them.';
      await ingest(d, ordersSession('pref-1', orders, ago(5), ['Always give me short answers without preamble.', lint]), dir, 'pref-1');
      // About the person and nothing of the project: the user's at once. A rule about the work: the project's, until said in another.
      expect(has(await memories(d, orders), /short answers/).map((m) => m.scope)).toEqual(['user']);
      expect(has(await memories(d, orders), /linter/).map((m) => m.scope)).toEqual(['project']);
      const s = new ClaudeSession({ sessionId: 'pref-2', cwd: site, start: ago(2) })
        .user('Why does the docs build take a minute now?')
        .assistant('The image optimiser runs on every page without a cache. Caching it should cut the build to about 9 s.')
        .toolUse('e1', 'Edit', { file_path: `${site}/astro.config.mjs`, old_string: 'image: {}', new_string: "image: { cache: '.cache/images' }" })
        .toolResult('e1', 'The file has been updated successfully.')
        .toolUse('b1', 'Bash', { command: 'npm run build' })
        .toolResult('b1', 'built 48 pages in 9.2s')
        .user(lint)
        .assistant('Ran npm run lint: no problems. Committing now.')
        .toolUse('b2', 'Bash', { command: 'npm run lint && git commit -am "Cache optimised images"' })
        .toolResult('b2', '[main 3f2a1c9] Cache optimised images\n 1 file changed, 1 insertion(+), 1 deletion(-)')
        .user('now open a PR for it with a short description')
        .toolUse('b3', 'Bash', { command: 'gh pr create --fill' })
        .toolResult('b3', 'https://github.com/acme/site/pull/212')
        .assistant('Opened https://github.com/acme/site/pull/212.');
      await ingest(d, s, dir, 'pref-2');
      const promoted = has(await memories(d, other), /linter/);
      expect(promoted.map((m) => m.scope)).toEqual(['user']);
      expect(new Set(promoted[0]?.sources.map((x) => x.sessionId))).toEqual(new Set(['pref-1', 'pref-2']));
      // The project copies are kept, superseded by the user memory.
      expect(has(await memories(d, orders, true), /linter/).map((m) => m.supersededBy)).toEqual([promoted[0]?.id]);
      const elsewhere = await recall(d, other);
      expect(recalled(elsewhere, /linter/)).toBe(true);
      expect(recalled(elsewhere, /short answers/)).toBe(true);
    });

    // Class 1c (and 7): promotion keeps a rule bound to the moment decaying.
    it('(c) a rule bound to the moment ("until … is fixed") said in two projects still decays once promoted', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const skip = 'Until the staging API is fixed, always skip the e2e tests when you run the suite.';
      await ingest(d, ordersSession('skip-1', project(dir, 'orders'), ago(5), [skip]), dir, 'skip-1');
      await ingest(d, ordersSession('skip-2', project(dir, 'site'), ago(2), [skip]), dir, 'skip-2');
      const kept = has(await memories(d, project(dir, 'other')), /skip the e2e tests/);
      expect(kept.map((m) => m.stable)).toEqual([false]);
    });

    // Class 1c: "I always want short answers without preamble." said in two projects.
    it('(c) "I always want short answers without preamble." said in two projects is promoted to user scope', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const orders = project(dir, 'orders');
      const site = project(dir, 'site');
      await ingest(d, ordersSession('pref-3', orders, ago(5), ['I always want short answers without preamble.']), dir, 'pref-3');
      await ingest(d, ordersSession('pref-4', site, ago(2), ['I always want short answers without preamble.']), dir, 'pref-4');
      expect(has(await memories(d, project(dir, 'other')), /short answers/).map((m) => m.scope)).toEqual(['user']);
    });
  });

  describe('2. truncation', () => {
    /** Every "(" closed by its ")". */
    const balanced = (t: string): boolean => (t.match(/\(/g) ?? []).length === (t.match(/\)/g) ?? []).length;
    const releaseSession = (id: string, cwd: string, rule: string) =>
      new ClaudeSession({ sessionId: id, cwd, start: ago(3) })
        .user('Please bump the version to 2.4.0 and prepare the release.')
        .toolUse('e1', 'Edit', { file_path: `${cwd}/package.json`, old_string: '"version": "2.3.9"', new_string: '"version": "2.4.0"' })
        .toolResult('e1', 'The file has been updated successfully.')
        .assistant('Bumped package.json to 2.4.0. Should I also write the changelog?')
        .user(rule)
        .assistant('Got it. I wrote CHANGELOG.md with added, fixed and removed sections for 2.4.0.')
        .toolUse('w1', 'Write', {
          file_path: `${cwd}/CHANGELOG.md`,
          content: '## 2.4.0\n\nadded:\n- export to CSV\n\nfixed:\n- nothing\n\nremoved:\n- nothing\n',
        })
        .toolResult('w1', 'File created successfully.')
        .user('Tag it and push.')
        .toolUse('b1', 'Bash', { command: 'git tag v2.4.0 && git push --tags' })
        .toolResult('b1', 'To github.com:acme/app.git\n * [new tag] v2.4.0 -> v2.4.0');

    it('keeps a rule whole across a parenthesis and "e.g.", in the store and in recall', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const app = project(dir, 'app');
      const rule = 'Yes. Always write the changelog as release notes with three sections (added:, fixed:, removed:) e.g. for every release, even a patch.';
      await ingest(d, releaseSession('release-1', app, rule), dir, 'release-1');
      const stored = await memories(d, app);
      const notes = has(stored, /release notes/);
      expect(notes).toHaveLength(1);
      expect(notes[0]?.content).toContain('release notes with three sections (added:, fixed:, removed:) e.g. for every release, even a patch');
      for (const m of stored) expect(balanced(m.content), m.content).toBe(true);
      const r = await recall(d, app);
      expect(recalled(r, /\(added:, fixed:, removed:\) e\.g\. for every release/)).toBe(true);
      for (const i of r.items) expect(balanced(i.text), i.text).toBe(true);
    });

    // Class 2: a typed message hard-wrapped inside a sentence is read as the sentence, not cut at the line break.
    it('keeps a sentence whole across a line break inside it', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const app = project(dir, 'app');
      const rule = 'Yes. Always write the changelog as release notes with three\nsections (added:, fixed:, removed:) e.g. for every release, even a patch.';
      await ingest(d, releaseSession('release-2', app, rule), dir, 'release-2');
      const stored = await memories(d, app);
      for (const m of stored) expect(balanced(m.content), m.content).toBe(true);
      expect(stored.some((m) => /release notes with three\s+sections \(added:, fixed:, removed:\) e\.g\. for every release/.test(m.content))).toBe(true);
      expect(stored.some((m) => /with three\.?$/.test(m.content))).toBe(false);
    });
  });

  describe('3. a question without its answer', () => {
    const reportSession = (id: string, cwd: string, answer: string) =>
      new ClaudeSession({ sessionId: id, cwd, start: ago(3) })
        .user('Generate the monthly usage report from the events table.')
        .toolUse('b1', 'Bash', { command: 'psql -c "select count(*) from events where at >= \'2026-03-01\'"' })
        .toolResult('b1', ' count\n-------\n 48213\n(1 row)')
        .assistant('I have the numbers for March. Which format do you want for the report: a compact table or the detailed one?')
        .user(answer)
        .assistant('Here is the detailed report with per-customer breakdowns, written to reports/2026-03.md.')
        .toolUse('w1', 'Write', { file_path: `${cwd}/reports/2026-03.md`, content: '# Usage, March 2026\n\n| customer | events |\n' })
        .toolResult('w1', 'File created successfully.')
        .user('thanks, looks good');

    it('stores the question with its answer, never the question alone', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const app = project(dir, 'reports');
      await ingest(d, reportSession('report-1', app, 'the detailed one, always'), dir, 'report-1');
      const stored = await memories(d, app);
      const asked = has(stored, /Which format/);
      expect(asked).toHaveLength(1);
      expect(asked[0]?.content).toMatch(/Which format do you want for the report.*the detailed one/);
      expect(recalled(await recall(d, app), /Which format.*the detailed one/)).toBe(true);
    });

    // Class 3: the bare answer "the detailed one" is joined to its question.
    it('stores "Which format …? → the detailed one" for the bare answer', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const app = project(dir, 'reports');
      await ingest(d, reportSession('report-2', app, 'the detailed one'), dir, 'report-2');
      const asked = has(await memories(d, app), /Which format/);
      expect(asked.map((m) => /the detailed one/.test(m.content))).toEqual([true]);
    });

    // A reply that opens with its answer and gives the reason after it is the answer, reason and all;
    // a go-ahead's "yes" does not make the rule said after it an answer to the question.
    it('keeps "Which format …? → Detailed. <reason>" whole, and a rule after a bare yes as a rule of its own', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const app = project(dir, 'reports');
      const reason = 'Detailed. The compact table drops the per-customer rows that finance asks about every single month.';
      await ingest(d, reportSession('report-3', app, reason), dir, 'report-3');
      expect(has(await memories(d, app), /Which format/).map((m) => m.content)).toEqual([
        expect.stringMatching(/Which format.*→ Detailed\. The compact table drops/),
      ]);

      const other = project(dir, 'reports-2');
      const goAhead = 'Yes, the detailed one. And one thing for good: every report goes under reports/ with the month in its name.';
      await ingest(d, reportSession('report-4', other, goAhead), dir, 'report-4');
      const stored = await memories(d, other);
      expect(has(stored, /Which format.*every report goes/)).toEqual([]);
      expect(has(stored, /every report goes under reports/)).toHaveLength(1);
    });
  });

  describe('4. a request reversed later in the session', () => {
    const prettierSession = (id: string, cwd: string, first: string, later: string) =>
      new ClaudeSession({ sessionId: id, cwd, start: ago(3) })
        .user('Set up prettier for the repo and format the code.')
        .assistant('Added .prettierrc with the defaults.')
        .user(first)
        .toolUse('w1', 'Write', { file_path: `${cwd}/.prettierrc`, content: '{ "useTabs": true }' })
        .toolResult('w1', 'File created successfully.')
        .assistant('Prettier now indents with tabs.')
        .user('and format the src folder')
        .toolUse('b1', 'Bash', { command: 'npx prettier --write src' })
        .toolResult('b1', 'src/index.ts 40ms\nsrc/routes.ts 12ms')
        .user(later)
        .toolUse('w2', 'Write', { file_path: `${cwd}/.prettierrc`, content: '{ "useTabs": false, "tabWidth": 2 }' })
        .toolResult('w2', 'File created successfully.')
        .assistant('Switched back to spaces and reformatted src.')
        .user('now commit the formatting on its own');

    // Class 4: a correction in other words ("actually no, … never tabs") takes back what it refuses, whatever the slots.
    it('does not keep a request the person took back in other words ("actually no, use spaces, never tabs")', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const fmt = project(dir, 'fmt');
      const git = project(dir, 'git');
      await ingest(d, prettierSession('fmt-1', fmt, 'Always use tabs for indentation in this repo.', 'actually no, use spaces, never tabs.'), dir, 'fmt-1');
      await ingest(
        d,
        prettierSession(
          'fmt-3',
          git,
          'Always squash the commits when you merge a branch.',
          'Actually no, never squash the commits when you merge a branch, keep the history.',
        ),
        dir,
        'fmt-3',
      );
      expect(has(await memories(d, fmt), /use tabs/i)).toEqual([]);
      expect(recalled(await recall(d, fmt), /use tabs/i)).toBe(false);
      expect(has(await memories(d, git), /Always squash/)).toEqual([]);
    });

    it('does not keep a rule the person said the other way round later in the session', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const app = project(dir, 'fmt');
      await ingest(
        d,
        prettierSession(
          'fmt-2',
          app,
          'Always squash the commits when you merge a branch.',
          'Actually no, never squash the commits when you merge a branch. Keep the history.',
        ),
        dir,
        'fmt-2',
      );
      expect(has(await memories(d, app), /Always squash/)).toEqual([]);
      expect(recalled(await recall(d, app), /Always squash/)).toBe(false);
    });
  });

  describe('5. negation scope', () => {
    // Class 5a: an answer's slot is read from the answer, and a reply's "No," does not negate the clause after it.
    it('(a) "No, we deploy with Nomad only." is stored saying Nomad, not negating it', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const api = project(dir, 'api');
      const s = new ClaudeSession({ sessionId: 'nomad-1', cwd: api, start: ago(3) })
        .user('Write a deploy script for the api service.')
        .toolUse('g1', 'Glob', { pattern: 'deploy/**' })
        .toolResult('g1', 'deploy/nomad/api.nomad.hcl')
        .assistant('Should the script build a Kubernetes manifest and apply it with kubectl, or do you deploy some other way?')
        .user('No, we deploy with Nomad only. The job files live in deploy/nomad/.')
        .toolUse('w1', 'Write', { file_path: `${api}/scripts/deploy.sh`, content: '#!/bin/sh\nset -e\nnomad job run deploy/nomad/api.nomad.hcl\n' })
        .toolResult('w1', 'File created successfully.')
        .assistant('I wrote scripts/deploy.sh, which runs nomad job run deploy/nomad/api.nomad.hcl.')
        .user('great, make it executable and commit it');
      await ingest(d, s, dir, 'nomad-1');
      const nomad = has(await memories(d, api), /Nomad/);
      expect(nomad.length).toBeGreaterThan(0);
      for (const m of nomad) {
        expect(m.content).toMatch(/deploy with Nomad only/);
        if (m.slot !== undefined) expect(m.slot.value.charAt(0), JSON.stringify(m.slot)).toBe('+');
      }
      expect(recalled(await recall(d, api), /deploy with Nomad only/)).toBe(true);
    });

    it('(b) a dream only proposes, never applies, a replacement that flips the polarity of a slot', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const app = project(dir, 'shop');
      const first = await ingest(
        d,
        ordersSession('qa-1', app, ago(6), ['The staging database is shared with the QA team. Ask them before you truncate its tables.']),
        dir,
        'qa-1',
      );
      const second = await ingest(
        d,
        ordersSession('qa-2', app, ago(2), ['The staging database is not shared with the QA team. They got their own copy last week.']),
        dir,
        'qa-2',
      );
      const shared = first.added.find((m) => /is shared with the QA team/.test(m.content));
      const notShared = second.added.find((m) => /is not shared with the QA team/.test(m.content));
      expect(shared?.slot?.value.charAt(0)).toBe('+');
      expect(notShared?.slot?.value.charAt(0)).toBe('-');
      expect(second.superseded).toEqual([]);
      const report = await dream(d);
      expect(report.replacements).toContainEqual(expect.objectContaining({ older: shared?.id, newer: notShared?.id }));
      expect(report.supersessions.map((x) => x.id)).not.toContain(shared?.id);
      const active = (await memories(d, app)).map((m) => m.id);
      expect(active).toContain(shared?.id);
      expect(active).toContain(notShared?.id);
    });

    it('(c) a rejection is stored and recalled together with what it rejected', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const ops = project(dir, 'ops');
      await ingest(d, adminPortSession('admin-1', ops), dir, 'admin-1');
      const rejections = has(await memories(d, ops), /^Rejected /);
      expect(rejections).toHaveLength(1);
      expect(rejections[0]?.content).toMatch(/^Rejected .*0\.0\.0\.0:9000.*: no public admin port, it's unsafe/);
      const r = await recall(d, ops, 'open the admin port 9000 so I can reach the dashboard');
      const about = r.items.filter((i) => i.text.includes('0.0.0.0:9000'));
      expect(about.length).toBeGreaterThan(0);
      for (const i of about) expect(i.text, i.text).toContain("no public admin port, it's unsafe");
      // The past session's excerpt of the rejected call carries the rejection too.
      expect(about.some((i) => i.kind === 'episode' && i.text.includes("[rejected by the person: no public admin port, it's unsafe"))).toBe(true);
    });
  });

  describe('6. supersession across sessions', () => {
    it('"Switch to Vitest from now on." in a later session supersedes the Jest memory: archived, linked, not recalled', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const web = project(dir, 'web');
      const first = await ingest(d, ordersSession('jest-1', web, ago(9), ['The unit tests always run with Jest.']), dir, 'jest-1');
      const jest = first.added.find((m) => /Jest/.test(m.content));
      expect(jest).toBeDefined();
      const second = await ingest(d, ordersSession('vitest-1', web, ago(2), ['Switch to Vitest from now on.']), dir, 'vitest-1');
      const vitest = second.added.find((m) => /Vitest/.test(m.content));
      expect(second.superseded.map((m) => m.id)).toEqual([jest?.id]);
      const archived = has(await memories(d, web, true), /Jest/);
      expect(archived.map((m) => m.supersededBy)).toEqual([vitest?.id]);
      const r = await recall(d, web);
      expect(recalled(r, /Vitest/)).toBe(true);
      expect(recalled(r, /Jest/)).toBe(false);
    });

    // Class 6 (and 8): "We use Jest for tests." is stored, so there is something to supersede.
    it('"We use Jest for tests." is stored, then superseded by "Switch to Vitest from now on."', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const web = project(dir, 'web');
      await ingest(d, ordersSession('jest-2', web, ago(9), ['We use Jest for tests.']), dir, 'jest-2');
      await ingest(d, ordersSession('vitest-2', web, ago(2), ['Switch to Vitest from now on.']), dir, 'vitest-2');
      expect(has(await memories(d, web, true), /Jest/).map((m) => m.supersededBy !== undefined)).toEqual([true]);
    });
  });

  it('7. an approved plan that mentions "tonight\'s batch" is stable, and still recalled 60 days later after a dream', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const billing = project(dir, 'billing');
    const plan = [
      "# Plan: Fix the invoice rounding and re-run tonight's batch",
      '',
      '## Steps',
      '',
      '1. Fix the currency rounding in src/export/invoice.ts: round half-even, to the cent.',
      '2. Add a regression test with the three invoices that failed.',
      "3. Re-run tonight's batch with the fixed exporter and compare the totals with the ledger.",
      '',
    ].join('\n');
    const s = new ClaudeSession({ sessionId: 'plan-1', cwd: billing, start: ago(1) })
      .user('Three invoices failed to export last night with a rounding error, plan the fix.')
      .toolUse('r1', 'Read', { file_path: `${billing}/src/export/invoice.ts` })
      .toolResult('r1', 'export const cents = (x: number) => Math.round(x * 100);\n')
      .toolUse('p1', 'ExitPlanMode', { plan })
      .toolResult('p1', 'User has approved your plan. You can now start coding.')
      .toolUse('e1', 'Edit', { file_path: `${billing}/src/export/invoice.ts`, old_string: 'Math.round(x * 100)', new_string: 'roundHalfEven(x * 100)' })
      .toolResult('e1', 'The file has been updated successfully.')
      .toolUse('b1', 'Bash', { command: 'npm test' })
      .toolResult('b1', 'Tests: 57 passed, 57 total')
      .user('good, ship it');
    await ingest(d, s, dir, 'plan-1');
    // The plan's gist, and its step when kept on its own: each a decision that stands.
    const planned = has(await memories(d, billing), /tonight's batch/);
    expect(planned.length).toBeGreaterThan(0);
    expect(planned.map((m) => m.stable)).toEqual(planned.map(() => true));
    // 60 days later, after another session of the project.
    await d.stop();
    d.env.NIGHTSHIFT_CLOCK_OFFSET_MS = String(60 * DAY);
    await d.start();
    const later = new ClaudeSession({ sessionId: 'later-1', cwd: billing, start: new Date(Date.now() + 59 * DAY).toISOString() })
      .user('Update the README with the new export command.')
      .toolUse('e1', 'Edit', { file_path: `${billing}/README.md`, old_string: 'npm run export', new_string: 'npm run export -- --month' })
      .toolResult('e1', 'The file has been updated successfully.')
      .assistant('Updated the README.')
      .user('thanks');
    await ingest(d, later, dir, 'later-1');
    const report = await dream(d);
    for (const p of planned) expect(report.archives.map((a) => a.id)).not.toContain(p.id);
    expect(recalled(await recall(d, billing), /tonight's batch/)).toBe(true);
  });

  // Class 8: a plain statement of what the project is.
  it('8. "This service is a Go gRPC server." is stored and recalled', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const orders = project(dir, 'orders');
    await ingest(d, ordersSession('ident-1', orders, ago(3), ['This service is a Go gRPC server.']), dir, 'ident-1');
    expect(has(await memories(d, orders), /Go gRPC server/)).toHaveLength(1);
    expect(recalled(await recall(d, orders), /Go gRPC server/)).toBe(true);
  });

  // Class 9: terse typed rules ("pls keep handlers under 50 lines", "DON'T run the migrations, I do that").
  it('9. terse typed rules are stored', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const orders = project(dir, 'orders');
    await ingest(d, ordersSession('terse-1', orders, ago(3), ['pls keep handlers under 50 lines', "DON'T run the migrations, I do that"]), dir, 'terse-1');
    const stored = await memories(d, orders);
    expect(has(stored, /handlers under 50 lines/)).toHaveLength(1);
    expect(has(stored, /run the migrations, I do that/i)).toHaveLength(1);
  });

  // Class 10: the spec is read line by line and none of it is stored whole. The ranker scores a pasted document's
  // lines low, so only a few reach the block unasked; its most specific statements (versions, ports, tools) are
  // kept under the floor for a query to find.
  it('10. a pasted spec is mined line by line: its configuration lines become memories, the spec is not stored whole', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const ledger = project(dir, 'ledger');
    expect(SPEC.length).toBeGreaterThan(10_000);
    const s = new ClaudeSession({ sessionId: 'spec-1', cwd: ledger, start: ago(2) })
      .user(`Here is the spec for the new ledger sync service. Read it and scaffold the project skeleton.\n\n${SPEC}`)
      .assistant('I read the spec. I will set up a Gradle project with Kotlin, Ktor and Exposed, the inbox table migration and the webhook handler.')
      .toolUse('w1', 'Write', { file_path: `${ledger}/build.gradle.kts`, content: 'plugins { kotlin("jvm") version "2.0.0" }\n' })
      .toolResult('w1', 'File created successfully.')
      .toolUse('w2', 'Write', {
        file_path: `${ledger}/src/main/resources/db/migration/V1__inbox.sql`,
        content: 'create table inbox (id bigserial primary key, event_id text unique not null, payload jsonb not null);\n',
      })
      .toolResult('w2', 'File created successfully.')
      .toolUse('b1', 'Bash', { command: './gradlew build' })
      .toolResult('b1', 'BUILD SUCCESSFUL in 41s')
      .assistant('The skeleton builds. The webhook handler verifies the signature and writes to the inbox.')
      .user('good, push it to a branch');
    await ingest(d, s, dir, 'spec-1');
    const fromSpec = (await memories(d, ledger)).filter((m) => m.sources.some((x) => x.messageIds.includes('spec-1-0000')));
    expect(fromSpec.length).toBeGreaterThanOrEqual(3);
    expect(has(fromSpec, /Kotlin 2\.0/)).toHaveLength(1);
    expect(has(fromSpec, /port 8443/)).toHaveLength(1);
    for (const m of fromSpec) {
      expect(m.content.length, m.content).toBeLessThan(500);
      expect(m.content).not.toContain('\n');
    }
    const r = await recall(d, ledger, 'which port does the public HTTP API listen on');
    expect(recalled(r, /port 8443/)).toBe(true);
    const unasked = await recall(d, ledger);
    expect(recalled(unasked, /port 8443/)).toBe(false);
    expect(unasked.items.filter((i) => i.kind === 'memory').length).toBeLessThan(fromSpec.length);
  });

  it('11. no memory is labelled "Demo:" for a link with the word "demo" elsewhere in the message', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const app = project(dir, 'shop');
    const s = new ClaudeSession({ sessionId: 'demo-1', cwd: app, start: ago(2) })
      .user('Set up the local environment so I can run the shop for the investor call.')
      .assistant('Which guide should I follow for the setup?')
      .user('see the docs at https://docs.example.com/setup, the demo is tomorrow')
      .toolUse('f1', 'WebFetch', { url: 'https://docs.example.com/setup', prompt: 'setup steps' })
      .toolResult('f1', '1. Install Node 20. 2. Run npm ci. 3. Copy .env.example to .env.')
      .toolUse('b1', 'Bash', { command: 'npm ci && cp .env.example .env' })
      .toolResult('b1', 'added 812 packages in 21s')
      .assistant('The shop runs locally on http://localhost:3000. The staging copy is deployed at https://acme-shop.onrender.com.')
      .user('Keep the demo data in seeds/demo.sql, the staging app is at https://acme-shop.onrender.com for the demo.');
    await ingest(d, s, dir, 'demo-1');
    const stored = await memories(d, app);
    expect(stored.filter((m) => /\bdemo:/i.test(m.content))).toEqual([]);
    for (const i of (await recall(d, app)).items) expect(i.text).not.toMatch(/\bdemo:/i);
  });

  describe('13. prompt-time recall', () => {
    it("(a) never injects another project's memories or excerpts of its sessions", async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const web = project(dir, 'web');
      const etl = project(dir, 'etl');
      const webSession = ordersSession('web-1', web, ago(4), ['Always connect to the staging database through pgbouncer on port 6432, never directly.']);
      const etlSession = new ClaudeSession({ sessionId: 'etl-1', cwd: etl, start: ago(3) })
        .user('The nightly load into the staging database stalls at the orders table, can you look?')
        .assistant('The load holds a lock on the staging database orders table while the vacuum runs. I moved the vacuum after the load.')
        .toolUse('e1', 'Edit', { file_path: `${etl}/dags/nightly.py`, old_string: 'vacuum >> load', new_string: 'load >> vacuum' })
        .toolResult('e1', 'The file has been updated successfully.')
        .user('Always connect to the staging database directly on port 5433 with the etl_reader role, never through pgbouncer.')
        .assistant('Noted: the loader connects to the staging database on port 5433 as etl_reader.')
        .toolUse('b1', 'Bash', { command: 'pytest tests/test_nightly.py' })
        .toolResult('b1', '4 passed in 1.20s')
        .user('now rerun the load for yesterday');
      await ingest(d, webSession, dir, 'web-1');
      await ingest(d, etlSession, dir, 'etl-1');
      expect(has(await memories(d, etl), /5433/)).toHaveLength(1);
      const context = await promptHook(d, web, 'web-now', 'connect to the staging database and list the tables of the orders schema');
      expect(context).toContain('6432');
      for (const theirs of ['5433', 'etl_reader', 'vacuum', 'nightly load']) expect(context).not.toContain(theirs);
    });

    it('(b) a rejected "fix" is injected only with its rejection', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const ops = project(dir, 'ops');
      await ingest(d, adminPortSession('admin-2', ops), dir, 'admin-2');
      const context = await promptHook(d, ops, 'ops-now', 'expose the admin port 9000 publicly in docker-compose so I can reach the admin dashboard');
      const lines = context.split('\n').filter((l) => l.includes('0.0.0.0:9000'));
      expect(lines.length).toBeGreaterThan(0);
      for (const l of lines) expect(l).toContain("no public admin port, it's unsafe");
    });
  });
});

/** The agent proposes exposing the admin port; the person rejects the edit with a reason. */
function adminPortSession(id: string, cwd: string): ClaudeSession {
  return new ClaudeSession({ sessionId: id, cwd, start: ago(3) })
    .user('The admin dashboard should be reachable from my laptop, can you set that up?')
    .toolUse('r1', 'Read', { file_path: `${cwd}/docker-compose.yml` })
    .toolResult('r1', 'services:\n  admin:\n    image: acme/admin:1.4\n    ports:\n      - "127.0.0.1:9000:9000"\n')
    .assistant('I will publish the admin port 9000 on all interfaces in docker-compose.yml.')
    .toolUse('e1', 'Edit', { file_path: `${cwd}/docker-compose.yml`, old_string: '- "127.0.0.1:9000:9000"', new_string: '- "0.0.0.0:9000:9000"' })
    .toolResult('e1', `${REJECTED_SAYING}no public admin port, it's unsafe`, true)
    .assistant('Understood. Use an SSH tunnel instead: ssh -L 9000:localhost:9000 ops-host, then open http://localhost:9000.')
    .user('ok, add that to the README under "Admin access"')
    .toolUse('e2', 'Edit', {
      file_path: `${cwd}/README.md`,
      old_string: '## Admin access\n',
      new_string: '## Admin access\n\nssh -L 9000:localhost:9000 ops-host\n',
    })
    .toolResult('e2', 'The file has been updated successfully.');
}

/** A pasted spec (about 10,000 characters): headings, bullets (stack, ports, constraints) and a lot of prose. */
const SPEC = `# Ledger Sync — service specification

Version 0.9, for review. This document describes the ledger sync service that moves settled payments from the payment processor into the accounting ledger, what it is built with, how it runs, and the rules it has to follow. It replaces the cron scripts in ops/legacy-sync, which have drifted from what finance expects and which nobody wants to maintain any more.

## Background

Finance closes the books every month from the ledger, not from the processor dashboard. Today three cron scripts copy the day's settlements into the ledger at 02:00, but they fail silently when the processor API times out, they double-post when they are re-run by hand, and they know nothing about refunds that arrive after the settlement they belong to. Last quarter the close was delayed by four days while two people reconciled 1,900 payments line by line. The goal of this service is that the ledger is complete and correct within fifteen minutes of a settlement, that every posting can be traced back to the processor event that caused it, and that running it twice never posts anything twice.

The service is deliberately small. It does not decide anything about money: it copies facts from one system of record into another, and when it cannot do that safely it stops and says so. Everything clever (currency conversion, revenue recognition, tax) stays in the ledger, where the accountants can see and change the rules.

## Stack

- Language: Kotlin 2.0 on the JVM 21 (Temurin).
- HTTP: Ktor 3 with the CIO engine; no Spring anywhere in this service.
- Database: PostgreSQL 16, accessed with Exposed; migrations with Flyway, one file per change, never edited once merged.
- Queue: the processor webhooks land in a Postgres table (outbox pattern); no Kafka for this service.
- Build: Gradle with the Kotlin DSL; the wrapper is committed and is the only supported way to build.
- Tests: JUnit 5 and Testcontainers for anything that touches the database.

## Ports and endpoints

- The public HTTP API listens on port 8443 (TLS terminated by the service itself, certificates from Vault).
- The metrics endpoint listens on port 9102 and is only reachable from the cluster network.
- The admin endpoints (replay, pause, resume) live under /admin on the same port as the API and need the ops role.
- Health checks: /healthz for liveness, /readyz for readiness; readiness is false while a replay runs.

## Data flow

A settlement arrives as a webhook from the processor. The handler verifies the signature, writes the raw event to the inbox table in the same transaction as an idempotency key derived from the processor's event id, and answers 200 only after that commit. Nothing else happens inside the request: a worker picks up inbox rows in order of arrival, turns each into one or more ledger postings, sends them to the ledger API and marks the row done with the ledger's posting ids. If the ledger answers with a validation error, the row is parked with the error and a person has to look at it; if the ledger is unreachable, the worker backs off and tries again, up to an hour, before it parks the row as well.

Refunds and chargebacks are events of their own. They reference the original settlement by its processor id; the worker looks up the postings of that settlement and posts the reversal against the same accounts. A refund whose settlement has not been posted yet waits in the inbox until it has, and an alert fires if it waits longer than a day.

Every posting carries the processor event id, the inbox row id and the service version in its metadata, so that an accountant looking at a line in the ledger can follow it back to the exact webhook that produced it. This traceability is the main thing finance asked for, and it is not optional for any posting type.

## Constraints

- Amounts are integers in minor units (cents) from end to end; floating point never touches an amount.
- Every write to the ledger is idempotent: the idempotency key is the processor event id plus the posting index.
- The service never deletes a ledger posting; corrections are reversals.
- No personal data leaves the inbox table: card numbers never arrive, and customer names are dropped before posting.
- A replay of a day must produce exactly the postings that day already has, or report the difference without posting.
- The worker processes one merchant account at a time, in order; parallelism is across merchant accounts only.

## Operations

The service runs as two replicas behind the internal load balancer; only one of them runs the worker at any time, chosen with a Postgres advisory lock, so a failover needs no coordination beyond the lock. Deploys are rolling, one replica at a time, and a deploy never runs while a replay is in progress. Configuration comes from environment variables that the deploy pipeline fills from Vault; there is no configuration file in the image, and a missing variable stops the service at start-up with a message naming it.

Logs are JSON lines on stdout with the inbox row id and the processor event id on every line that concerns an event. The on-call engineer should be able to answer "did this payment reach the ledger, and if not, why" from the logs and the admin endpoints alone, without a database shell. The dashboards show the inbox depth, the age of the oldest unprocessed row, the parked rows by error, and the postings per minute; the alerts fire on an inbox older than fifteen minutes, on any parked row, and on a replay that found differences.

Backups are the database's own (point-in-time recovery, seven days). Because the inbox keeps every raw event for ninety days, a lost ledger can be rebuilt by replaying the inbox; this is tested once a quarter in staging, and the test is part of the runbook, not something left for a bad day.

## Error handling

Errors fall into three kinds, and the service treats each kind differently. Errors of the processor (a webhook with a bad signature, an event of a type the service does not know) are answered with a 4xx and never enter the inbox; they are counted and logged with the raw headers, so a misconfigured webhook secret shows up within minutes instead of at month end. Errors of the ledger that say the posting itself is wrong (an unknown account, a currency the account does not accept) park the row at once, because retrying will not change the answer. Errors that are about reachability (timeouts, connection resets, a 503 from the ledger) are retried with exponential backoff starting at two seconds and capped at five minutes, for an hour in total.

A parked row is never skipped silently: the worker moves on to the next merchant account, but it does not post anything later for the same merchant account until the parked row is resolved, because postings of one merchant account depend on each other (a refund needs its settlement). Resolving a parked row is done through the admin endpoints: retry it as it is, retry it after the ledger was fixed, or mark it as handled by hand with a note that ends up in the posting metadata.

## Security

The webhook signature is checked with the processor's current and previous secret, so a rotation needs no downtime. The ledger API token has the posting scope only; it cannot read other ledgers or change accounts. Secrets come from Vault at start-up and are never written to disk, to the logs or to the inbox. The admin endpoints need the ops role from the company identity provider, and every call to them is logged with the caller, the row and the action, for the auditors.

## Testing

Unit tests cover the mapping from each processor event type to postings, with amounts chosen to catch rounding mistakes (odd cents, three-decimal currencies, zero-amount events). Integration tests run the whole flow against a Postgres container and a fake ledger that can be told to fail in each of the three ways above. A replay test takes a recorded day of events from staging, runs it twice, and checks that the second run posts nothing. Every pull request runs all of them; the replay test also runs nightly against the latest staging data.

## Migration from the cron scripts

For two weeks the service runs in shadow mode: it processes every event and computes the postings, but instead of sending them to the ledger it compares them with what the cron scripts posted and writes the differences to a report. Finance reviews the report every morning. When three consecutive days show no difference that cannot be explained, the cron scripts are switched off and the service starts posting for real, beginning with the next day's settlements. The scripts stay in the repository, disabled, until the first month-end close with the new service is done, and are deleted after that.

During shadow mode the service must not write to the ledger at all, not even to a sandbox account; the switch is a single environment variable that the deploy pipeline sets, and the service logs its mode at start-up so there is no doubt which one is running.

## Open questions

Whether the ledger API's rate limit of 50 requests per second is enough at month end, when settlements arrive in bursts of several thousand, has not been measured yet; batching postings per settlement would cut the requests by about two thirds if it is not. Whether chargebacks need their own accounts or can share the refund accounts is for finance to decide; the service should make either possible without a code change. The retention of parked rows after they were resolved is not settled either: ninety days like the inbox is the working assumption.

## Out of scope

Currency conversion, revenue recognition, tax calculation, payouts to merchants, and anything the processor calls "disputes" beyond the chargeback event itself. Reporting to finance beyond the shadow-mode difference report is done in the ledger, not here.

## Glossary

- Settlement: the processor's confirmation that a payment was captured and will be paid out.
- Posting: one balanced entry in the ledger, with at least two lines.
- Inbox: the table where webhooks land before the worker turns them into postings.
- Parked row: an inbox row the worker gave up on until a person looks at it.
- Replay: processing a day of inbox rows again, to rebuild or to check the ledger.
`;
