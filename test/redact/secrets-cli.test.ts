/**
 * Secrets that got through, end to end: a transcript with a GitHub token one character
 * short (`ghp_` + 35), an AWS key id one character long (`AKIA` + 17) and a token behind a
 * qualifier ("My github token for the release script is …") is ingested by a real daemon; no
 * secret value may come out of any surface (ingest summary, memories list and export, recall,
 * search, sessions and their digest, the MCP memory tools) or sit in any file of its state.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { daemonsPerTest, tempDirsPerTest } from '../helpers/daemon.js';
import { writeClaudeTranscript } from '../helpers/transcripts.js';
import { startMcp, text } from '../mcp/mcp-client.js';
import { j, Seeded, UPPER32 } from '../fixtures/secrets/random.js';
import { filesUnder } from '../helpers/files-under.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-secrets-');

const r = new Seeded(0x21);
const GH_35 = j('_', 'ghp', r.key(35));
const GH_QUALIFIED = j('_', 'ghp', r.key(36));
const AKIA_17 = `AKIA${r.key(17, UPPER32)}`;
const NEAR_WORD = r.key(32);
const REMEMBERED = j('_', 'ghp', r.key(35));
const AKIA_LONG = `AKIA${r.key(17, UPPER32)}`;
const VALUES = [GH_35, GH_QUALIFIED, AKIA_17, NEAR_WORD, REMEMBERED, AKIA_LONG];

const leaks = (out: string): string[] => VALUES.filter((v) => out.includes(v));

describe('secrets that got through, end to end', () => {
  it('no surface and no state file holds a near-shape token, a long key id or a qualified one', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const project = join(dir, 'release-tools');
    mkdirSync(join(project, '.git'), { recursive: true });
    const file = join(dir, 'session.jsonl');
    writeClaudeTranscript(
      file,
      [
        { role: 'user', text: `This project deploys with ${AKIA_17} from the CI runner.` },
        { role: 'assistant', text: 'Noted: deploys run from the CI runner.' },
        { role: 'user', text: `The release script always reads GITHUB_TOKEN=${GH_35} from the environment.` },
        { role: 'user', text: `My github token for the release script is ${GH_QUALIFIED}` },
        { role: 'user', text: `The deploy key we use on staging for the release script is ${NEAR_WORD}, we always rotate it monthly.` },
        { role: 'user', text: 'We always run the release script from the main branch, never from a tag.' },
      ],
      { sessionId: 'sess-secrets', cwd: project, start: '2026-11-20T10:00:00.000Z' },
    );
    const outputs: Record<string, string> = {};
    const run = async (label: string, args: string[]) => {
      const res = await d.cli(args);
      expect(res.code, `${label}: ${res.stderr}`).toBe(0);
      outputs[label] = res.stdout + res.stderr;
    };
    await run('ingest', ['ingest', file, '--json']);
    // The case: the key id kept as a project fact, recalled at session start, exported.
    await run('remember', ['remember', '--project', project, '--type', 'fact', '--json', `This project deploys with ${AKIA_LONG} from the CI runner.`]);
    await run('memories list', ['memories', 'list', '--project', project, '--json']);
    await run('memories export', ['memories', 'export']);
    await run('recall', ['recall', '--project', project, '--query', 'release script deploy token', '--json']);
    await run('recall text', ['recall', '--project', project, '--query', 'release script github token']);
    await run('recall at session start', ['recall', '--project', project, '--format', 'claude-hook']);
    await run('search', ['search', 'release', 'script', 'token', '--json']);
    await run('sessions list', ['sessions', 'list', '--query', 'github token release script', '--json']);
    await run('sessions show (digest)', ['sessions', 'show', 'sess-secrets', '--json']);

    const mcp = await startMcp(d.env, project);
    try {
      const remembered = await mcp.call('memory_remember', { content: `The CI bot token for the release script is ${REMEMBERED}`, project });
      outputs['mcp remember'] = text(remembered);
      outputs['mcp recall'] = text(await mcp.call('memory_recall', { project, query: 'release script token' }));
      outputs['mcp search_sessions'] = text(await mcp.call('session_search', { query: 'github token release script' }));
    } finally {
      await mcp.close();
    }
    await run('memories export after remember', ['memories', 'export']);

    // The surfaces carry the memories (masked), so an empty answer cannot pass for a clean one.
    expect(outputs['memories export']).toContain('[REDACTED:');
    expect(outputs['mcp recall']).toContain('release script');
    expect(outputs['recall at session start']).toContain('deploys with [REDACTED:aws_access_key_id] from the CI runner');
    const found: Record<string, string[]> = {};
    const check = (where: string, out: string) => {
      const l = leaks(out);
      if (l.length > 0) found[where] = l;
    };
    for (const [label, out] of Object.entries(outputs)) check(label, out);
    for (const path of filesUnder(d.home)) check(path.slice(d.home.length), readFileSync(path, 'latin1'));
    check('daemon log', d.log);
    expect(found).toEqual({});
  });
});
