/**
 * What the hooks give a session, through the CLI against a real daemon: nothing the session already
 * has (its session-start block counts), never a memory beside the past-session excerpt it came from,
 * and nothing recorded as given when the hook gave up before the answer came.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { InjectionsResponse } from '../../src/api/injections.js';
import type { Memory } from '../../src/api/memory.js';
import { daemonsPerTest, tempDirsPerTest, type CliResult, type TestDaemon } from '../helpers/daemon.js';
import { ingest, memories, project } from '../helpers/memory-cli.js';
import { ClaudeSession } from '../helpers/session-lines.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-give-');
/** The prompt hook gives up after 150 ms by default; a loaded test machine may take longer. */
const PATIENT = { NIGHTSHIFT_PROMPT_HOOK_TIMEOUT_MS: '10000' };

function additional(r: CliResult): string {
  expect(r.code, r.stderr).toBe(0);
  if (r.stdout.trim() === '') return '';
  return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

const startHook = (d: TestDaemon, sessionId: string, cwd: string, env: Record<string, string> = {}) =>
  d.cli(['hook', 'session-start'], { input: JSON.stringify({ session_id: sessionId, cwd, source: 'startup', hook_event_name: 'SessionStart' }), env });

const promptHook = (d: TestDaemon, sessionId: string, cwd: string, prompt: string, env: Record<string, string> = PATIENT) =>
  d.cli(['hook', 'user-prompt-submit'], {
    input: JSON.stringify({ session_id: sessionId, transcript_path: join(cwd, `${sessionId}.jsonl`), cwd, hook_event_name: 'UserPromptSubmit', prompt }),
    env,
  });

async function ledger(d: TestDaemon, sessionId: string): Promise<InjectionsResponse['injections']> {
  const r = await d.cli(['injections', '--session', sessionId, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as InjectionsResponse).injections;
}

async function remember(d: TestDaemon, cwd: string, text: string): Promise<string> {
  const r = await d.cli(['remember', '--project', cwd, '--type', 'fact', text, '--json']);
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { id: string }).id;
}

describe('a session is not given again what it has', () => {
  it('a memory of the session-start block is not repeated at a prompt of that session, across a restart too; another session gets it', async () => {
    const d = newDaemon();
    await d.start();
    const cwd = tmp();
    const text = 'Feature flags for the checkout live in LaunchDarkly under the project key shop-web.';
    const id = await remember(d, cwd, text);
    expect(additional(await startHook(d, 'sess-a', cwd))).toContain(text);
    const asking = 'which LaunchDarkly project key holds the checkout feature flags?';
    expect(additional(await promptHook(d, 'sess-a', cwd, asking))).toBe('');
    // Another session, whose start was not given it: the prompt brings it.
    expect(additional(await promptHook(d, 'sess-b', cwd, asking))).toContain(text);
    expect((await ledger(d, 'sess-b')).flatMap((i) => i.items.map((x) => x.id))).toEqual([id]);
    await d.restart();
    expect(additional(await promptHook(d, 'sess-a', cwd, `remind me: ${asking}`))).toBe('');
  });
});

describe('one answer says each thing once', () => {
  it('a memory and the past message it was taken from are never both given', async () => {
    const d = newDaemon();
    await d.start();
    const cwd = project(tmp(), 'shop');
    // The memory is one sentence of the message: not the same text, and the excerpt is the whole message.
    const past = new ClaudeSession({ sessionId: 'past-9', cwd })
      .user('the migration on the orders cluster hung for ten minutes yesterday')
      .assistant('It waited on a lock held by the reporting job.')
      .user(
        'That explains the hang then. Going forward, always run the database migrations with the flag --lock-timeout=5s on the orders cluster! Also ping me in #ops when one fails.',
      )
      .assistant('Understood, I will pass that flag from now on.');
    await ingest(d, past, tmp(), 'past-9');
    const m = (await memories(d, cwd)).find((x: Memory) => x.content.includes('--lock-timeout=5s'));
    expect(m, 'the statement is a memory').toBeDefined();
    expect(m?.sources.some((s) => s.sessionId === 'past-9')).toBe(true);
    const context = additional(await promptHook(d, 'now-1', cwd, 'run the database migrations on the orders cluster'));
    expect(context).toContain('--lock-timeout=5s');
    expect(context.split('--lock-timeout=5s')).toHaveLength(2);
    expect(context).not.toContain('explains the hang');
    const given = (await ledger(d, 'now-1'))[0]?.items ?? [];
    expect(given.map((i) => i.kind)).toContain('memory');
    const sources = new Set(m?.sources.flatMap((x) => x.messageIds.map((id) => `${x.sessionId}#${id}`)));
    expect(given.filter((i) => i.kind === 'episode' && sources.has(i.id))).toEqual([]);
  });

  it('an excerpt is left out for a memory the session has, never for one the answer does not give', async () => {
    const d = newDaemon();
    await d.start();
    const cwd = project(tmp(), 'infra');
    const past = new ClaudeSession({ sessionId: 'past-5', cwd })
      .user('the terraform apply for the vpc module failed again on the staging account')
      .assistant('The state lock was still held by a crashed run; I released it.')
      .user(
        'Noted. From now on, always pass -lock-timeout=120s to terraform apply in CI. Yesterday the stuck lock cost Priya from the infra rota two hours of her evening.',
      )
      .assistant('Will do.');
    await ingest(d, past, tmp(), 'past-5');
    const m = (await memories(d, cwd)).find((x: Memory) => x.content.includes('-lock-timeout=120s'));
    expect(m?.content).not.toContain('Priya');
    const asking = 'how long did the stuck lock cost Priya yesterday evening?';
    // This prompt does not match the memory, only the rest of its message: with the memory out of the answer, the excerpt is given.
    const fresh = additional(await promptHook(d, 'fresh-5', cwd, asking));
    expect(fresh).toContain('cost Priya from the infra rota two hours');
    // A session whose start gave the memory already has what the excerpt was taken for.
    expect(additional(await startHook(d, 'started-5', cwd))).toContain('-lock-timeout=120s');
    expect(additional(await promptHook(d, 'started-5', cwd, asking))).toBe('');
  });

  it('an excerpt that holds a memory’s words is left out beside it, whatever the memory’s origin', async () => {
    const d = newDaemon();
    await d.start();
    const cwd = project(tmp(), 'data');
    const memory = 'The warehouse export job runs at 02:00 UTC from the cron container.';
    await remember(d, cwd, memory);
    const past = new ClaudeSession({ sessionId: 'past-4', cwd })
      .user('when does the warehouse export run again?')
      .assistant(`${memory} It starts after the nightly backup has finished, so it sometimes slips.`);
    await ingest(d, past, tmp(), 'past-4');
    const context = additional(await promptHook(d, 'now-4', cwd, 'move the warehouse export job off the cron container'));
    expect(context).toContain(memory);
    expect(context).not.toContain('sometimes slips');
  });
});

describe('only what reached the hook is given', () => {
  it('answers the hooks gave up on are not in the ledger, and their items come at the next prompt', async () => {
    const d = newDaemon();
    await d.start();
    const cwd = tmp();
    const text = 'Nightly backups are copied to the bucket acme-backups in us-east-2.';
    await remember(d, cwd, text);
    const pid = d.proc?.pid;
    if (pid === undefined) throw new Error('no daemon pid');
    // A daemon that does not answer in time: stopped while both hooks wait, then resumed to answer no one.
    process.kill(pid, 'SIGSTOP');
    let start: CliResult;
    let asked: CliResult;
    try {
      start = await startHook(d, 'late-1', cwd, { NIGHTSHIFT_HOOK_TIMEOUT_MS: '300' });
      asked = await promptHook(d, 'late-1', cwd, 'where are the nightly backups copied to?', { NIGHTSHIFT_PROMPT_HOOK_TIMEOUT_MS: '300' });
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    expect(start.stdout).toBe('');
    expect(start.stderr).toMatch(/did not answer/);
    expect(asked).toEqual({ code: 0, stdout: '', stderr: '' });
    // The daemon reads both abandoned requests once resumed; give it time to (not) record them.
    await d.client.status();
    await sleep(500);
    expect(await ledger(d, 'late-1')).toEqual([]);
    expect(additional(await promptHook(d, 'late-1', cwd, 'which bucket and region hold the nightly backups?'))).toContain(text);
    expect((await ledger(d, 'late-1')).map((i) => i.event)).toEqual(['prompt']);
  });

  it('an answer with nothing in it marks nothing', async () => {
    const d = newDaemon();
    await d.start();
    const cwd = tmp();
    expect(additional(await startHook(d, 'empty-1', cwd))).toBe('');
    expect(additional(await promptHook(d, 'empty-1', cwd, 'rename the billing webhook handler'))).toBe('');
    expect(await ledger(d, 'empty-1')).toEqual([]);
    const text = 'The billing webhook handler verifies Stripe signatures with the secret in STRIPE_WEBHOOK_SECRET.';
    await remember(d, cwd, text);
    expect(additional(await promptHook(d, 'empty-1', cwd, 'rename the billing webhook handler'))).toContain(text);
  });
});
