/**
 * The "Current state" section through the CLI against a real daemon: sessions written with the
 * line shapes Claude Code and Codex write (TodoWrite, ExitPlanMode, Bash `git commit`, compaction
 * summaries; update_plan and shell calls in a rollout), ingested in order, then recalled.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RecallResponse } from '../../../src/api/memory.js';
import { daemonsPerTest, tempDirsPerTest } from '../../helpers/daemon.js';
import { ago, dream, ingest, ingestText, memories, project, recall } from '../../helpers/memory-cli.js';
import { ClaudeSession } from '../../helpers/session-lines.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-state-');

/** A daemon of its own, started, and a project directory in a temp dir of the test's. */
async function started(name: string) {
  const d = newDaemon();
  await d.start();
  const dir = tmp();
  return { d, dir, cwd: project(dir, name) };
}

const state = (r: RecallResponse) => r.items.filter((i) => i.kind === 'state').map((i) => i.text);
const approved = 'User has approved your plan. You can now start coding. Start with updating your todo list if applicable';
const rejectedPlan =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\nno, keep the current queue";

/** A session on the uploads service: a task list, commits (one reverted), a rejected plan, a compaction summary and a report. */
function firstSession(cwd: string): ClaudeSession {
  return new ClaudeSession({ sessionId: 'up-1', cwd, start: ago(3) })
    .user('The S3 uploads fail on large files, please make them resilient.')
    .toolUse('t1', 'TodoWrite', {
      todos: [
        { content: 'Add retry to the S3 upload', status: 'in_progress', activeForm: 'Adding retry to the S3 upload' },
        { content: 'Write the migration for orders', status: 'pending', activeForm: 'Writing the migration for orders' },
        { content: 'Expose an upload_failed metric', status: 'pending', activeForm: 'Exposing an upload_failed metric' },
      ],
    })
    .toolResult('t1', 'Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress.')
    .toolUse('p1', 'ExitPlanMode', { plan: '## Replace the job queue with Kafka\n\n1. add a Kafka producer\n2. drop the Redis queue' })
    .toolResult('p1', rejectedPlan, true)
    .toolUse('e1', 'Edit', { file_path: `${cwd}/src/upload.ts`, old_string: 'await put(part)', new_string: 'await withRetry(() => put(part))' })
    .toolResult('e1', 'The file has been updated successfully.')
    .toolUse('b1', 'Bash', { command: 'git add -A && git commit -m "Add retry to the S3 upload"', description: 'Commit' })
    .toolResult('b1', '[main a1b2c3d] Add retry to the S3 upload\n 1 file changed, 12 insertions(+), 2 deletions(-)')
    .toolUse('b2', 'Bash', { command: 'git commit -am "Log every multipart request body"' })
    .toolResult('b2', '[main 9f8e7d6] Log every multipart request body\n 1 file changed, 3 insertions(+)')
    .user('that logging leaks customer data, take it back')
    .toolUse('b3', 'Bash', { command: 'git revert --no-edit 9f8e7d6' })
    .toolResult('b3', '[main 5c4b3a2] Revert "Log every multipart request body"\n 1 file changed, 3 deletions(-)')
    .toolUse('t2', 'TodoWrite', {
      todos: [
        { content: 'Add retry to the S3 upload', status: 'completed', activeForm: 'Adding retry to the S3 upload' },
        { content: 'Write the migration for orders', status: 'in_progress', activeForm: 'Writing the migration for orders' },
        { content: 'Expose an upload_failed metric', status: 'pending', activeForm: 'Exposing an upload_failed metric' },
      ],
    })
    .toolResult('t2', 'Todos have been modified successfully.')
    .compactSummary(
      'This session is being continued from a previous conversation that ran out of context.\n\n1. Primary Request and Intent:\n   Make S3 uploads resilient.\n\n7. Pending Tasks:\n   - Benchmark the presigned URL path\n\n8. Current Work:\n   The orders migration.',
    )
    .assistant('Retry is in (a1b2c3d).\n\nStill pending:\n- write the migration for orders\n- expose an upload_failed metric');
}

describe('current state from the agent record', () => {
  it('recalls what was built and what is open, never a reverted commit or a rejected plan, and drops what a later session finished', async () => {
    const { d, dir, cwd } = await started('uploads');
    await ingest(d, firstSession(cwd), dir, 'up-1');

    let lines = state(await recall(d, cwd));
    expect(lines.some((l) => /^Committed \d{4}-\d\d-\d\d: (?:.+ · )?Add retry to the S3 upload \(a1b2c3d\)(?: · |$)/.test(l))).toBe(true);
    expect(lines.some((l) => /^Open \(tasks, \d{4}-\d\d-\d\d\): (?:.* · )?Write the migration for orders \(in progress\)(?: · |$)/.test(l))).toBe(true);
    expect(lines.some((l) => /^Open \(tasks, [^)]*\): (?:.* · )?Expose an upload_failed metric(?: · |$)/.test(l))).toBe(true);
    expect(lines.some((l) => /Benchmark the presigned URL path/.test(l))).toBe(true);
    expect(lines.some((l) => /request body/i.test(l))).toBe(false);
    expect(lines.some((l) => /Kafka/.test(l))).toBe(false);
    // The completed item is not open (it is built, by its commit).
    expect(lines.some((l) => /^Open .*Add retry/.test(l))).toBe(false);

    const md = await d.cli(['recall', '--project', cwd, '--format', 'markdown']);
    expect(md.stdout).toContain("## Current state (the agent's record)");

    // The next session finishes the migration (its todo list) and the metric (a commit that covers it).
    const next = new ClaudeSession({ sessionId: 'up-2', cwd, start: ago(1) })
      .user('carry on with what is left')
      .toolUse('t1', 'TodoWrite', { todos: [{ content: 'Write the migration for orders', status: 'completed', activeForm: 'Writing the migration' }] })
      .toolResult('t1', 'Todos have been modified successfully.')
      .toolUse('b1', 'Bash', { command: 'git commit -am "Expose the upload_failed metric for Grafana"' })
      .toolResult('b1', '[main 0a1b2c3] Expose the upload_failed metric for Grafana\n 2 files changed')
      .assistant('Both are done: the migration is written and the metric is exported.');
    await ingest(d, next, dir, 'up-2');
    lines = state(await recall(d, cwd));
    expect(lines.filter((l) => l.startsWith('Open '))).toEqual([]);
    expect(lines.some((l) => /^Committed \d{4}-\d\d-\d\d: (?:.+ · )?Expose the upload_failed metric for Grafana \(0a1b2c3\)/.test(l))).toBe(true);
    expect(lines.some((l) => /Benchmark the presigned/.test(l))).toBe(false);

    // The dream keeps it; the record is still recalled after it.
    await dream(d);
    expect(state(await recall(d, cwd)).some((l) => l.includes('0a1b2c3'))).toBe(true);
  }, 60_000);

  it('counts an approved plan carried out as built, and keeps the section within a quarter of the budget', async () => {
    const { d, dir, cwd } = await started('ledger');
    const s = new ClaudeSession({ sessionId: 'led-1', cwd, start: ago(2) })
      .user('plan the VAT report first')
      .toolUse('p1', 'ExitPlanMode', { plan: '# VAT report as a query object with a CSV download\n\n1. VatReport query\n2. /reports/vat.csv' })
      .toolResult('p1', approved)
      .toolUse('w1', 'Write', { file_path: `${cwd}/app/queries/vat_report.rb`, content: 'class VatReport; end\n' })
      .toolResult('w1', 'File created successfully.');
    const things = ['invoice', 'payment', 'refund', 'journal', 'account', 'currency', 'receipt', 'audit', 'report', 'export'];
    const deeds = ['Validate', 'Cache', 'Index', 'Archive', 'Reconcile', 'Format'];
    for (let i = 0; i < 60; i++) {
      const message = `${deeds[i % deeds.length]} the ${things[Math.floor(i / deeds.length)]} records`;
      s.toolUse(`c${i}`, 'Bash', { command: `git commit -am "${message}"` });
      s.toolResult(`c${i}`, `[main ${(0x1000000 + i).toString(16)}] ${message}\n 1 file changed`);
    }
    await ingest(d, s, dir, 'led-1');
    const budget = 1200;
    const r = (await d.cli(['recall', '--project', cwd, '--json', '--budget', String(budget)])).stdout;
    const items = (JSON.parse(r) as RecallResponse).items.filter((i) => i.kind === 'state');
    expect(items.some((i) => /^Built \d{4}-\d\d-\d\d: (?:.+ · )?VAT report as a query object with a CSV download \(approved plan\)/.test(i.text))).toBe(true);
    // The session's 60 commits are one line, as many of them as fit, and more than a few do.
    const committed = items.filter((i) => i.text.startsWith('Committed '));
    expect(committed).toHaveLength(1);
    expect(committed[0]?.text.split(' · ').length).toBeGreaterThan(3);
    expect(items.reduce((n, i) => n + i.tokens, 0)).toBeLessThanOrEqual(budget * 0.25);
  }, 60_000);

  it('says an approved plan once: its title and gist in the record, no decision memory beside it', async () => {
    const { d, dir, cwd } = await started('ledger');
    const plan =
      '# VAT report as a query object\n\n## Summary\nOne query object feeds both the report page and its CSV download.\n\n## Steps\n1. VatReport query\n2. /reports/vat.csv';
    const s = new ClaudeSession({ sessionId: 'led-2', cwd, start: ago(1) })
      .user('plan the VAT report first')
      .toolUse('p1', 'ExitPlanMode', { plan })
      .toolResult('p1', approved)
      .toolUse('w1', 'Write', { file_path: `${cwd}/app/queries/vat_report.rb`, content: 'class VatReport; end\n' })
      .toolResult('w1', 'File created successfully.');
    await ingest(d, s, dir, 'led-2');
    const block = await recall(d, cwd);
    const saying = block.items.filter((i) => /VAT report as a query object/.test(i.text));
    expect(saying.map((i) => i.kind)).toEqual(['state']);
    expect(saying[0]?.text).toMatch(/VAT report as a query object — One query object feeds both the report page and its CSV download \(approved plan\)/);
  }, 60_000);

  it("closes a compaction summary's pending steps once a commit after it carried the work on, not before", async () => {
    const { d, dir, cwd } = await started('viewer');
    const summary = (steps: string) =>
      `This session is being continued from a previous conversation that ran out of context.\n\n1. Primary Request and Intent:\n   Unify the transcript views.\n\n7. Pending Tasks:\n${steps}\n\n8. Current Work:\n   The shared component.`;
    const s = new ClaudeSession({ sessionId: 'view-1', cwd, start: ago(2) })
      .user('Unify the transcript views of the session page and the subagent page.')
      .compactSummary(summary('   - Fix the compile error in transcript_components.ex\n   - Reduce the nesting in compute_groups'))
      .toolUse('e1', 'Edit', { file_path: `${cwd}/lib/transcript_components.ex`, old_string: 'a', new_string: 'b' })
      .toolResult('e1', 'The file has been updated successfully.')
      .toolUse('b1', 'Bash', { command: 'git commit -am "feat: unified transcript views"' })
      .toolResult('b1', '[main 64f1b9a] feat: unified transcript views\n 12 files changed');
    await ingest(d, s, dir, 'view-1');
    let lines = state(await recall(d, cwd));
    expect(lines.some((l) => /64f1b9a/.test(l))).toBe(true);
    expect(lines.filter((l) => l.startsWith('Open '))).toEqual([]);

    // A summary written after the session's last commit still says what is left.
    const later = new ClaudeSession({ sessionId: 'view-2', cwd, start: ago(1) })
      .user('Now the debug sidecar.')
      .toolUse('b1', 'Bash', { command: 'git commit -am "feat: debug sidecar skeleton"' })
      .toolResult('b1', '[main 7a8b9c0] feat: debug sidecar skeleton\n 2 files changed')
      .compactSummary(summary('   - Add the expand control to the sidecar'));
    await ingest(d, later, dir, 'view-2');
    lines = state(await recall(d, cwd));
    expect(lines.some((l) => /^Open \(compaction summary, [^)]*\): (?:.* · )?Add the expand control to the sidecar/.test(l))).toBe(true);
  }, 60_000);

  it('keeps a finished task beside the commit that covers it when the task states a value the commit does not', async () => {
    const { d, dir, cwd } = await started('atelier');
    const todos = (retry: string, purge: string) => ({
      todos: [
        { content: 'Retry policy for failed thumbnails (max_attempts 5, exponential backoff)', status: retry, activeForm: 'Adding the retry policy' },
        { content: 'Stream the gallery export', status: 'completed', activeForm: 'Streaming the export' },
        { content: 'Purge originals after 30 days', status: purge, activeForm: 'Purging originals' },
      ],
    });
    const s = new ClaudeSession({ sessionId: 'at-1', cwd, start: ago(1) })
      .user('Il reste la politique de retry pour les miniatures qui échouent.')
      .toolUse('t1', 'TodoWrite', todos('in_progress', 'pending'))
      .toolResult('t1', 'Todos have been modified successfully.')
      .toolUse('t2', 'TodoWrite', todos('completed', 'pending'))
      .toolResult('t2', 'Todos have been modified successfully.')
      .toolUse('b1', 'Bash', { command: 'git add -A && git commit -m "feat(media): retry failed thumbnails with exponential backoff"' })
      .toolResult('b1', '[main cfdb63e] feat(media): retry failed thumbnails with exponential backoff\n 2 files changed')
      .toolUse('b2', 'Bash', { command: 'git commit -am "Stream the gallery export"' })
      .toolResult('b2', '[main 1a2b3c4] Stream the gallery export\n 1 file changed');
    await ingest(d, s, dir, 'at-1');
    const lines = state(await recall(d, cwd));
    expect(lines.some((l) => /max_attempts 5, exponential backoff\) \(tasks, done\)/.test(l))).toBe(true);
    expect(lines.some((l) => /cfdb63e/.test(l))).toBe(true);
    // A task its commit says as well is said once, by the commit.
    expect(lines.filter((l) => /Stream the gallery export/.test(l))).toHaveLength(1);
    expect(lines.some((l) => /^Open \(tasks, [^)]*\): (?:.* · )?Purge originals after 30 days/.test(l))).toBe(true);
  }, 60_000);

  it("takes a later report's pending part as the newer word on what is left, whatever words the earlier one used", async () => {
    const { d, dir, cwd } = await started('atelier');
    const first = new ClaudeSession({ sessionId: 'at-r1', cwd, start: ago(2) })
      .user('Génère les miniatures dans un worker Oban.')
      .assistant("C'est fait.\n\nReste à faire : la politique de retry pour les miniatures qui échouent.");
    await ingest(d, first, dir, 'at-r1');
    expect(state(await recall(d, cwd))).toContainEqual(expect.stringMatching(/^Open \([^)]*\): (?:.* · )?la politique de retry/));
    const second = new ClaudeSession({ sessionId: 'at-r2', cwd, start: ago(1) })
      .user('On reprend.')
      .toolUse('b1', 'Bash', { command: 'git commit -am "feat(media): retry failed thumbnails with exponential backoff"' })
      .toolResult('b1', '[main cfdb63e] feat(media): retry failed thumbnails with exponential backoff\n 1 file changed')
      .assistant("C'est fait (cfdb63e).\n\nReste à faire : la purge des originaux après 30 jours.");
    await ingest(d, second, dir, 'at-r2');
    const lines = state(await recall(d, cwd));
    expect(lines.some((l) => /politique de retry/.test(l))).toBe(false);
    expect(lines).toContainEqual(expect.stringMatching(/^Open \(the agent's report, [^)]*\): (?:.* · )?la purge des originaux après 30 jours/));
  }, 60_000);

  it('closes what a report left open once the agent fills in the placeholder it names, and not before or for a failed write', async () => {
    const { d, dir, cwd } = await started('kiosk');
    const lead = (id: string, at: number) =>
      new ClaudeSession({ sessionId: id, cwd, start: ago(at) })
        .user('Write the deploy section of the README.')
        .toolUse('w1', 'Write', { file_path: `${cwd}/README.md`, content: '# Kiosk\n\n**Staging:** _TODO: add the staging URL once it is up_\n' })
        .toolResult('w1', 'File created successfully.')
        .assistant('The README has its deploy section.\n\nStill open: the TODO for the staging URL once staging is up.')
        .user('https://kiosk-staging.example.org');
    const fill = {
      file_path: `${cwd}/README.md`,
      old_string: '**Staging:** _TODO: add the staging URL once it is up_',
      new_string: '**Staging:** https://kiosk-staging.example.org',
    };
    const open = (lines: string[]) => lines.some((l) => /^Open .*staging URL/.test(l));

    await ingest(d, lead('ks-1', 3), dir, 'ks-1');
    expect(open(state(await recall(d, cwd)))).toBe(true);
    const failed = lead('ks-2', 2)
      .toolUse('e1', 'Edit', fill)
      .toolResult('e1', 'String to replace not found in file.', true)
      .assistant('The edit did not apply.');
    await ingest(d, failed, dir, 'ks-2');
    expect(open(state(await recall(d, cwd)))).toBe(true);
    const filled = lead('ks-3', 1)
      .toolUse('e1', 'Edit', fill)
      .toolResult('e1', 'The file has been updated successfully.')
      .assistant('The README links the staging URL now.');
    await ingest(d, filled, dir, 'ks-3');
    expect(open(state(await recall(d, cwd)))).toBe(false);
  }, 60_000);

  it('closes what a report left open "once" something happened when a later session carried out the change it names', async () => {
    const { d, dir, cwd } = await started('larder');
    const first = new ClaudeSession({ sessionId: 'ld-1', cwd, start: ago(3) })
      .user('Add barcode scanning to the add-item form.')
      .toolUse('e1', 'Edit', { file_path: `${cwd}/pantry/lookup.py`, old_string: 'BASE = None', new_string: 'BASE = "https://off-staging.example"' })
      .toolResult('e1', 'The file has been updated successfully.')
      .assistant('Scanning is in.\n\nStill pending: switch the lookup from the staging mirror to world.openfoodfacts.org once testing is done.');
    await ingest(d, first, dir, 'ld-1');
    const open = (lines: string[]) => lines.some((l) => /^Open .*world\.openfoodfacts\.org/.test(l));
    expect(open(state(await recall(d, cwd)))).toBe(true);
    // Another change in the next session leaves it open.
    const other = new ClaudeSession({ sessionId: 'ld-2', cwd, start: ago(2) })
      .user('Rename the add-item form to the new-item form.')
      .toolUse('e1', 'Edit', { file_path: `${cwd}/pantry/forms.py`, old_string: 'AddItemForm', new_string: 'NewItemForm' })
      .toolResult('e1', 'The file has been updated successfully.');
    await ingest(d, other, dir, 'ld-2');
    expect(open(state(await recall(d, cwd)))).toBe(true);
    const done = new ClaudeSession({ sessionId: 'ld-3', cwd, start: ago(1) })
      .user('Testing went fine. Switch the lookup to world.openfoodfacts.org.')
      .toolUse('e1', 'Edit', {
        file_path: `${cwd}/pantry/lookup.py`,
        old_string: 'BASE = "https://off-staging.example"',
        new_string: 'BASE = "https://world.openfoodfacts.org"',
      })
      .toolResult('e1', 'The file has been updated successfully.');
    await ingest(d, done, dir, 'ld-3');
    expect(open(state(await recall(d, cwd)))).toBe(false);
  }, 60_000);

  it("drops the person's account of open work once the agent's record says it was built, and keeps what is still open", async () => {
    const { d, dir, cwd } = await started('ledger');
    const session = new ClaudeSession({ sessionId: 'vat-2', cwd, start: ago(1) })
      .user('Next on the not-yet list: the PDF version of the VAT report.')
      .user('Still pending after that: locking closed quarters against edits.')
      .toolUse('w1', 'Write', { file_path: `${cwd}/app/pdfs/vat_report_pdf.rb`, content: 'class VatReportPdf; end\n' })
      .toolResult('w1', 'File created successfully.')
      .toolUse('b1', 'Bash', { command: 'git add -A && git commit -m "Add PDF export of the VAT report"' })
      .toolResult('b1', '[main cf6a29c] Add PDF export of the VAT report\n 2 files changed, 40 insertions(+)')
      .assistant('The PDF export is in (cf6a29c).');
    await ingest(d, session, dir, 'vat-2');
    const r = await recall(d, cwd);
    expect(
      r.items
        .filter((i) => i.kind === 'memory')
        .map((i) => i.text)
        .join('\n'),
    ).not.toMatch(/PDF version of the VAT report/);
    expect(r.items.some((i) => i.kind === 'memory' && /locking closed quarters/.test(i.text))).toBe(true);
    expect(state(r).some((l) => /^Committed \d{4}-\d\d-\d\d: (?:.+ · )?Add PDF export of the VAT report \(cf6a29c\)/.test(l))).toBe(true);
  });

  it('drops the trouble the person reported once the agent reported its fix and they did not dispute it, and keeps it when they did', async () => {
    const { d, dir, cwd } = await started('consult');
    const fixed = new ClaudeSession({ sessionId: 'consult-1', cwd, start: ago(2) })
      .user("The remote tile is showing black when the vet mutes. It even hides the caller's own preview.")
      .toolUse('e1', 'Edit', { file_path: `${cwd}/apps/web/call.tsx`, old_string: 'bg-gray-900', new_string: 'bg-white' })
      .toolResult('e1', 'The file has been updated.')
      .assistant('Two things fixed:\n- Muted tracks now show the light placeholder instead of a dark frame.\n- The pip slides aside when the chat opens.');
    await ingest(d, fixed, dir, 'consult-1');
    const memoryText = (r: RecallResponse) =>
      r.items
        .filter((i) => i.kind === 'memory')
        .map((i) => i.text)
        .join('\n');
    expect(memoryText(await recall(d, cwd))).not.toMatch(/showing black|hides the caller/);

    const disputed = new ClaudeSession({ sessionId: 'consult-2', cwd, start: ago(1) })
      .user('The waiting room shows a blank screen for the vet.')
      .toolUse('e2', 'Edit', { file_path: `${cwd}/apps/vet/waiting.tsx`, old_string: 'null', new_string: '<Lobby />' })
      .toolResult('e2', 'The file has been updated.')
      .assistant('Fixed: the waiting room now renders the lobby.')
      .user("No, that didn't change anything.");
    await ingest(d, disputed, dir, 'consult-2');
    expect(memoryText(await recall(d, cwd))).toMatch(/waiting room shows a blank screen for the vet/);
  });

  it('reads a Codex rollout: plan updates, git commit in a shell call, the final message', async () => {
    const { d, dir, cwd } = await started('relay');
    const at = (i: number) => new Date(Date.parse(ago(1)) + i * 60_000).toISOString();
    const line = (i: number, type: string, payload: unknown) => JSON.stringify({ timestamp: at(i), type, payload });
    const plan = (steps: [string, string][]) => JSON.stringify({ explanation: 'tracking', plan: steps.map(([step, status]) => ({ step, status })) });
    const rollout = [
      line(0, 'session_meta', { id: 'codex-relay-1', cwd, originator: 'codex_cli_rs' }),
      line(1, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'slow subscribers must not block the producer' }] }),
      line(2, 'response_item', {
        type: 'function_call',
        name: 'update_plan',
        call_id: 'u1',
        arguments: plan([
          ['Drop the oldest messages for slow subscribers', 'in_progress'],
          ['Add a relay_dropped_messages_total counter', 'pending'],
        ]),
      }),
      line(3, 'response_item', { type: 'function_call_output', call_id: 'u1', output: 'Plan updated' }),
      line(4, 'response_item', {
        type: 'function_call',
        name: 'shell',
        call_id: 's1',
        arguments: JSON.stringify({ command: ['bash', '-lc', 'git commit -am "Drop the oldest messages when a subscriber lags"'] }),
      }),
      line(5, 'response_item', {
        type: 'function_call_output',
        call_id: 's1',
        output: JSON.stringify({ output: '[main 7e6d5c4] Drop the oldest messages when a subscriber lags\n 2 files changed', metadata: { exit_code: 0 } }),
      }),
      line(6, 'response_item', {
        type: 'function_call',
        name: 'update_plan',
        call_id: 'u2',
        arguments: plan([
          ['Drop the oldest messages for slow subscribers', 'completed'],
          ['Add a relay_dropped_messages_total counter', 'pending'],
        ]),
      }),
      line(7, 'response_item', { type: 'function_call_output', call_id: 'u2', output: 'Plan updated' }),
      line(8, 'response_item', {
        type: 'message',
        role: 'assistant',
        content: [
          {
            type: 'output_text',
            text: 'Backpressure is in.\n\nNext steps:\n- add a relay_dropped_messages_total counter\n- document the policy in the README',
          },
        ],
      }),
    ].join('\n');
    await ingestText(d, join(dir, 'rollout.jsonl'), `${rollout}\n`);
    const lines = state(await recall(d, cwd));
    expect(lines.some((l) => /^Committed \d{4}-\d\d-\d\d: (?:.+ · )?Drop the oldest messages when a subscriber lags \(7e6d5c4\)/.test(l))).toBe(true);
    expect(lines.some((l) => /^Open \(tasks, [^)]*\): (?:.* · )?Add a relay_dropped_messages_total counter/.test(l))).toBe(true);
    expect(lines.some((l) => /^Open \(the agent's report, [^)]*\): (?:.* · )?document the policy in the README/.test(l))).toBe(true);
    expect(lines.some((l) => /^Open .*Drop the oldest/.test(l))).toBe(false);
  }, 60_000);

  it('records what the person asked for and the agent changed files for, where no commit says it, and not a declined or taken-back change', async () => {
    const { d, dir, cwd } = await started('datastory');
    const rejectedEdit =
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).";
    const s = new ClaudeSession({ sessionId: 'story-1', cwd, start: ago(1) })
      .user('Create a single page data story (index.html and script.js) of the top grossing films by year.')
      .toolUse('w1', 'Write', { file_path: `${cwd}/index.html`, content: '<!doctype html>' })
      .toolResult('w1', `File created successfully at: ${cwd}/index.html`)
      .user('Add a toggle to adjust the grosses for inflation.')
      .toolUse('e1', 'Edit', { file_path: `${cwd}/script.js`, old_string: 'const a = 1', new_string: 'const a = 2' })
      .toolResult('e1', rejectedEdit, true)
      .user('Make the bars orange.')
      .toolUse('e2', 'Edit', { file_path: `${cwd}/script.js`, old_string: 'blue', new_string: 'orange' })
      .toolResult('e2', 'The file has been updated successfully.')
      .user('actually no, keep the bars blue')
      .toolUse('e3', 'Edit', { file_path: `${cwd}/script.js`, old_string: 'orange', new_string: 'blue' })
      .toolResult('e3', 'The file has been updated successfully.')
      .assistant('The story is in index.html; the bars stay blue.');
    await ingest(d, s, dir, 'story-1');
    const lines = state(await recall(d, cwd));
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^Built \d{4}-\d\d-\d\d: Create a single page data story \(index\.html and script\.js\) of the top grossing films by year \(as asked\)$/,
      ),
    );
    expect(lines.some((l) => /inflation|orange/.test(l))).toBe(false);
    const md = await d.cli(['recall', '--project', cwd, '--format', 'markdown']);
    expect(md.stdout).toMatch(/## Current state \(the agent's record\)\n- Built \d{4}-\d\d-\d\d: Create a single page data story/);
  }, 60_000);

  it('records a change whose request came in one ingest of the live transcript and its write in the next', async () => {
    const { d, dir, cwd } = await started('charts');
    const file = join(dir, 'live.jsonl');
    const s = new ClaudeSession({ sessionId: 'live-1', cwd, start: ago(1) }).user('Move the size legend above the chart.');
    await ingestText(d, file, s.text());
    s.toolUse('e1', 'Edit', { file_path: `${cwd}/chart.js`, old_string: 'legend.bottom', new_string: 'legend.top' });
    await ingestText(d, file, s.text());
    s.toolResult('e1', 'The file has been updated successfully.').assistant('The legend is above the chart now.');
    const last = await ingestText(d, file, s.text());
    // Each ingest read only what the file had gained since the one before.
    expect(last.fromOffset).toBeGreaterThan(0);
    expect(state(await recall(d, cwd))).toContainEqual(expect.stringMatching(/^Built \d{4}-\d\d-\d\d: Move the size legend above the chart \(as asked\)/));
  }, 60_000);

  it('closes what was left open about a placeholder whose edit came in one ingest of the live transcript and its result in the next', async () => {
    const { d, dir, cwd } = await started('kiosk');
    const file = join(dir, 'live.jsonl');
    const s = new ClaudeSession({ sessionId: 'live-2', cwd, start: ago(1) })
      .user('Write the deploy section of the README.')
      .toolUse('w1', 'Write', { file_path: `${cwd}/README.md`, content: '**Staging:** _TODO: add the staging URL once it is up_\n' })
      .toolResult('w1', 'File created successfully.')
      .assistant('Done.\n\nStill open: the TODO for the staging URL.')
      .user('https://kiosk-staging.example.org')
      .toolUse('e1', 'Edit', {
        file_path: `${cwd}/README.md`,
        old_string: '**Staging:** _TODO: add the staging URL once it is up_',
        new_string: '**Staging:** https://kiosk-staging.example.org',
      });
    await ingestText(d, file, s.text());
    expect(state(await recall(d, cwd)).some((l) => /^Open .*staging URL/.test(l))).toBe(true);
    s.toolResult('e1', 'The file has been updated successfully.').assistant('Linked.');
    const last = await ingestText(d, file, s.text());
    expect(last.fromOffset).toBeGreaterThan(0);
    expect(state(await recall(d, cwd)).some((l) => /^Open .*staging URL/.test(l))).toBe(false);
  }, 60_000);

  it('says a request once: as the work done, not again as a memory beside it', async () => {
    const { d, dir, cwd } = await started('tides');
    const s = new ClaudeSession({ sessionId: 'tides-1', cwd, start: ago(1) })
      .user('The API is Axum 0.7 on tokio, with Postgres through sqlx.')
      .assistant('Noted.')
      .user('Task: add GET /stations/{id}/tides?date=YYYY-MM-DD returning the high and low waters for that day.')
      .toolUse('w1', 'Write', { file_path: `${cwd}/src/routes/tides.rs`, content: 'pub async fn tides() {}' })
      .toolResult('w1', `File created successfully at: ${cwd}/src/routes/tides.rs`)
      .assistant('The route is in src/routes/tides.rs.');
    await ingest(d, s, dir, 'tides-1');
    expect((await memories(d, cwd)).some((m) => /high and low waters/.test(m.content))).toBe(true);
    const block = await recall(d, cwd);
    expect(block.items.filter((i) => /high and low waters/.test(i.text)).map((i) => i.kind)).toEqual(['state']);
    expect(block.items.some((i) => /Axum 0\.7/.test(i.text))).toBe(true);
  }, 60_000);

  it('says a request once when a commit says it: as the commit, not again as a memory', async () => {
    const { d, dir, cwd } = await started('larder');
    const s = new ClaudeSession({ sessionId: 'larder-1', cwd, start: ago(1) })
      .user('Larder is a Django app with Postgres 16.')
      .assistant('Noted.')
      .user('Switch the lookup to world.openfoodfacts.org.')
      .toolUse('e1', 'Edit', {
        file_path: `${cwd}/pantry/lookup.py`,
        old_string: 'BASE = "https://off-staging.example"',
        new_string: 'BASE = "https://world.openfoodfacts.org"',
      })
      .toolResult('e1', 'The file has been updated successfully.')
      .toolUse('b1', 'Bash', { command: 'git commit -am "lookup: use world.openfoodfacts.org"' })
      .toolResult('b1', '[main 9bb2e10] lookup: use world.openfoodfacts.org\n 1 file changed');
    await ingest(d, s, dir, 'larder-1');
    expect((await memories(d, cwd)).some((m) => /^Switch the lookup/.test(m.content))).toBe(true);
    const block = await recall(d, cwd);
    expect(block.items.filter((i) => /world\.openfoodfacts\.org/.test(i.text)).map((i) => i.kind)).toEqual(['state']);
    expect(block.items.some((i) => /Postgres 16/.test(i.text))).toBe(true);
  }, 60_000);

  it("keeps a memory that no one piece of a session's line says, though the pieces' words together cover it", async () => {
    const { d, dir, cwd } = await started('tides');
    const s = new ClaudeSession({ sessionId: 'tides-2', cwd, start: ago(1) })
      .user('The API is Axum 0.7 on tokio, with Postgres through sqlx.')
      .assistant('Noted.');
    const commits = ['Serve the API on Axum 0.7', 'Run the pool on tokio with Postgres', 'Query the stations through sqlx'];
    for (const [i, c] of commits.entries()) {
      s.toolUse(`b${i}`, 'Bash', { command: `git commit -am "${c}"` });
      s.toolResult(`b${i}`, `[main ${(0xabc0000 + i).toString(16)}] ${c}\n 1 file changed`);
    }
    await ingest(d, s, dir, 'tides-2');
    const block = await recall(d, cwd);
    expect(state(block)).toEqual([expect.stringMatching(/Serve the API on Axum 0\.7 .* · .*through sqlx/)]);
    expect(block.items.some((i) => i.kind === 'memory' && /Axum 0\.7 on tokio/.test(i.text))).toBe(true);
  }, 60_000);

  it('shows what the last report of a session without commits says was done, never a disputed claim, a heading or what is not done yet', async () => {
    const { d, dir, cwd } = await started('harbour');
    const reported = new ClaudeSession({ sessionId: 'harbour-1', cwd, start: ago(3) })
      .user('The harbour dashboard needs the tide heights of every station.')
      .toolUse('e1', 'Edit', { file_path: `${cwd}/src/tides.rs`, old_string: 'todo!()', new_string: 'fetch_tides(id).await' })
      .toolResult('e1', 'The file has been updated successfully.')
      .assistant('Earlier: added a draft of the cache.')
      .assistant(
        'Implemented:\n- Added the tide heights endpoint for every station\n- The station cache is in place for each harbour\n- The metrics export is not implemented yet',
      );
    await ingest(d, reported, dir, 'harbour-1');
    let lines = state(await recall(d, cwd));
    const built = lines.find((l) => l.startsWith('Built ')) ?? '';
    expect(built).toMatch(/Added the tide heights endpoint for every station \(the agent's report\)/);
    expect(built).toMatch(/The station cache is in place for each harbour \(the agent's report\)/);
    // Only the last report's word; a heading alone, and what it says is not done, are no work done.
    expect(built).not.toMatch(/draft of the cache|Implemented \(|metrics export/);

    const disputed = new ClaudeSession({ sessionId: 'harbour-2', cwd, start: ago(2) })
      .user('The heights are rounded wrong on the chart.')
      .toolUse('e2', 'Edit', { file_path: `${cwd}/src/chart.rs`, old_string: 'round()', new_string: 'round_to(2)' })
      .toolResult('e2', 'The file has been updated successfully.')
      .assistant('Fixed the rounding of the tide heights on the chart.')
      .user("No, that's still wrong: 1.235 shows as 1.2.");
    await ingest(d, disputed, dir, 'harbour-2');
    lines = state(await recall(d, cwd));
    expect(lines.some((l) => /rounding of the tide heights/.test(l))).toBe(false);

    const committed = new ClaudeSession({ sessionId: 'harbour-3', cwd, start: ago(1) })
      .user('Show the moon phase beside each station.')
      .toolUse('b1', 'Bash', { command: 'git commit -am "Show the moon phase per station"' })
      .toolResult('b1', '[main 7a6b5c4] Show the moon phase per station\n 1 file changed')
      .assistant('Added a moon phase column to the station table.');
    await ingest(d, committed, dir, 'harbour-3');
    lines = state(await recall(d, cwd));
    // A session that committed says its work in its commits.
    expect(lines.some((l) => /Show the moon phase per station \(7a6b5c4\)/.test(l))).toBe(true);
    expect(lines.some((l) => /moon phase column/.test(l))).toBe(false);
  }, 60_000);
});
