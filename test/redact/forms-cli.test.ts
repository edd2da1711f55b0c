/**
 * The credential forms an attacker's corpus got through, end to end against a real daemon: a push
 * URL with a token and a test flag with an API key (kept in digests before), `curl -u user:pass`,
 * `export PGPASSWORD=…`, `docker run -e …PASSWORD=…`, an API key split across two lines and another
 * across two messages, a key split across the lines of a `remember`. No value may come out of the digest (`sessions show`), recall, the
 * session-start hook, search, memories or any state file (digests and injections.jsonl included),
 * and the sentences around them are kept. A session that also holds one 5 MB message with no
 * spaces is ingested, and its ordinary lines are searchable.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../src/api/memory.js';
import { daemonsPerTest, tempDirsPerTest } from '../helpers/daemon.js';
import { ago, ingest, project } from '../helpers/memory-cli.js';
import { ClaudeSession } from '../helpers/session-lines.js';
import { B64URL, j, Seeded } from '../fixtures/secrets/random.js';
import { filesUnder } from '../helpers/files-under.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-forms-');

const r = new Seeded(0x30c1);
const GH = j('_', 'ghp', r.key(36));
const DD = r.str(32, '0123456789abcdef');
const CURL_PW = `Pw-9x${r.key(6)}`;
const PG_PW = `pg${r.key(10)}`;
const DOCKER_PW = `dk${r.key(10)}`;
const SPLIT = j('-', 'sk', 'ant', 'api03', r.key(95, B64URL));
const ACROSS = j('-', 'sk', 'ant', 'api03', r.key(95, B64URL));
const REMEMBERED = j('-', 'sk', 'ant', 'api03', r.key(95, B64URL));
const VALUES = [
  REMEMBERED.slice(0, 50),
  REMEMBERED.slice(50),
  GH,
  DD,
  CURL_PW,
  PG_PW,
  DOCKER_PW,
  SPLIT.slice(0, 63),
  SPLIT.slice(63),
  ACROSS.slice(0, 63),
  ACROSS.slice(63),
];

describe('command-line credentials and split keys, end to end', () => {
  it('are masked on every surface, digests included, and the sentences around them are kept', { timeout: 120_000 }, async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const repo = project(dir, 'billing');
    const session = new ClaudeSession({ sessionId: 'forms-1', cwd: repo, start: ago(1) })
      .user(`To check staging we always run curl -u deploy:${CURL_PW} against the health page first.`)
      .assistant('Noted.')
      .user(`Before psql we always export PGPASSWORD=${PG_PW} so it does not prompt.`)
      .user(`The local database always starts with docker run -e POSTGRES_PASSWORD=${DOCKER_PW} -p 5432:5432 postgres:16 for the billing tests.`)
      .user(`my key is ${SPLIT.slice(0, 63)}\n${SPLIT.slice(63)}`)
      .assistant('Thanks.')
      .user(`the other key is ${ACROSS.slice(0, 63)}`)
      .assistant('That looks cut off.')
      .user(ACROSS.slice(63))
      .toolUse('t1', 'Bash', { command: `git push https://${GH}@github.com/acme/billing.git main` })
      .toolResult('t1', 'remote: Permission denied', true)
      .toolUse('t2', 'Bash', { command: `npm test -- --dd-api-key=${DD}` })
      .toolResult('t2', 'Tests: 2 failed, 40 passed', true);
    const summary = await ingest(d, session, dir, 'forms-1');
    // Its first message (the digest reads the first three whole) holds one line of 5 MB with no spaces.
    const big = new ClaudeSession({ sessionId: 'forms-big', cwd: repo, start: ago(1) })
      .user(`here is the dump:\n${'aZ3bY4cX5dW6eV7fU8gT'.repeat(250_000)}\nThe invoices service always retries webhooks three times.`)
      .assistant('Got it.')
      .user('We always deploy the billing service from the release branch.');
    await ingest(d, big, dir, 'forms-big');
    expect(summary.messages).toBeGreaterThan(5);

    const outputs: Record<string, string> = {};
    const run = async (label: string, args: string[], input?: string) => {
      const res = await d.cli(args, input === undefined ? {} : { input });
      expect(res.code, `${label}: ${res.stderr}`).toBe(0);
      outputs[label] = res.stdout + res.stderr;
    };
    // A key split across two lines of a `remember`, recalled at session start.
    await run('remember', [
      'remember',
      '--project',
      repo,
      '--type',
      'fact',
      `The billing CI uses the key ${REMEMBERED.slice(0, 50)}\n${REMEMBERED.slice(50)} for its nightly run.`,
    ]);
    await run('sessions show', ['sessions', 'show', 'forms-1', '--json']);
    await run('memories list', ['memories', 'list', '--project', repo, '--json']);
    await run('recall', ['recall', '--project', repo, '--json']);
    await run('recall query', ['recall', '--project', repo, '--query', 'key staging psql docker push tests', '--json']);
    await run('session-start hook', ['hook', 'session-start'], JSON.stringify({ cwd: repo, session_id: 'forms-2' }));
    await run('search key', ['search', 'key', '--json']);
    await run('search webhooks', ['search', 'invoices', 'retries', 'webhooks', '--json']);
    await run('search release', ['search', 'deploy', 'billing', 'release', 'branch', '--json']);

    // The digest keeps the commands, masked; the memories keep their sentences, masked.
    const show = outputs['sessions show'] ?? '';
    expect(show).toContain('git push https://[REDACTED:github_token]@github.com/acme/billing.git main');
    expect(show).toContain('npm test -- --dd-api-key=[REDACTED:secret]');
    const contents = (JSON.parse(outputs['memories list'] ?? '[]') as Memory[]).map((m) => m.content);
    expect(contents).toContain('To check staging we always run curl -u deploy:[REDACTED:password] against the health page first.');
    expect(contents).toContain('Before psql we always export PGPASSWORD=[REDACTED:password] so it does not prompt.');
    expect(contents).toContain(
      'The local database always starts with docker run -e POSTGRES_PASSWORD=[REDACTED:password] -p 5432:5432 postgres:16 for the billing tests.',
    );
    expect(outputs['session-start hook']).toContain('The billing CI uses the key [REDACTED:anthropic_key] [REDACTED:anthropic_key] for its nightly run.');
    // The 5 MB line is masked whole; the lines around it, and the next message, are searchable.
    expect(outputs['search webhooks']).toContain('The invoices service always retries webhooks three times.');
    expect(outputs['search release']).toContain('We always deploy the billing service from the release branch.');

    const found: Record<string, string[]> = {};
    const check = (where: string, out: string) => {
      const leaked = VALUES.filter((v) => out.includes(v));
      if (leaked.length > 0) found[where] = leaked;
    };
    for (const [label, out] of Object.entries(outputs)) check(label, out);
    for (const path of filesUnder(d.home)) check(path.slice(d.home.length), readFileSync(path, 'latin1'));
    check('daemon log', d.log);
    expect(found).toEqual({});
    expect(filesUnder(d.home).some((p) => p.endsWith('injections.jsonl'))).toBe(true);
  });
});
