/**
 * Which tool calls a session digest counts as runs of a check, and how it says they ended, through
 * the CLI against a real daemon: a call the person declined is no run (and is listed as declined),
 * pass/fail is each run's own exit status, "passed" only when the last run passed (the failures
 * counted), and a search whose arguments mention a test command is no check. Claude Code and Codex
 * transcripts written for the tests.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionDigest } from '../../src/api/digest.js';
import type { IngestSummary, RecallResponse, SessionShowResponse } from '../../src/api/memory.js';
import { daemonsPerTest, type TestDaemon, tempDirsPerTest } from '../helpers/daemon.js';
import { ClaudeSession } from '../helpers/session-lines.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-digest-runs-');

/** Claude Code's results for a call the person rejected, without and with a reason. */
const REJECTED =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
const REJECTED_SAYING =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). To tell you how to proceed, the user said:\n";

interface Shown {
  digest: SessionDigest;
  /** `nightshift sessions show ID` as printed. */
  text: string;
  /** The session's line in the recall block ("recent sessions here"). */
  line: string | undefined;
}

async function ingestAndShow(d: TestDaemon, file: string, project: string): Promise<Shown> {
  const ingested = await d.cli(['ingest', file, '--json']);
  expect(ingested.code, ingested.stderr).toBe(0);
  const { sessionId } = JSON.parse(ingested.stdout) as IngestSummary;
  const show = await d.cli(['sessions', 'show', sessionId, '--json']);
  expect(show.code, show.stderr).toBe(0);
  const { digest } = JSON.parse(show.stdout) as SessionShowResponse;
  if (digest === null) throw new Error(`no digest for ${sessionId}`);
  const text = (await d.cli(['sessions', 'show', sessionId])).stdout;
  const recall = JSON.parse((await d.cli(['recall', '--project', project, '--json'])).stdout) as RecallResponse;
  return { digest, text, line: recall.items.find((i) => i.kind === 'digest')?.text };
}

type CodexItem = { user: string } | { cmd: string; output: string } | { shell: string; output: string } | { patch: string; output: string };

/** A Codex rollout whose calls are written as Codex writes them: exec_command, shell_command, apply_patch and their outputs. */
function codexRollout(id: string, cwd: string, items: CodexItem[]): string {
  let n = 0;
  const line = (type: string, payload: Record<string, unknown>) =>
    JSON.stringify({ timestamp: new Date(Date.parse('2026-10-02T09:00:00.000Z') + n++ * 60_000).toISOString(), type, payload });
  const lines = [line('session_meta', { id, cwd, originator: 'codex_cli_rs' })];
  items.forEach((it, i) => {
    const call_id = `call_${i}`;
    if ('user' in it) lines.push(line('response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: it.user }] }));
    else if ('patch' in it) {
      lines.push(line('response_item', { type: 'custom_tool_call', name: 'apply_patch', call_id, input: it.patch }));
      lines.push(line('response_item', { type: 'custom_tool_call_output', call_id, output: it.output }));
    } else {
      const [name, args] = 'cmd' in it ? ['exec_command', { cmd: it.cmd }] : ['shell_command', { command: it.shell }];
      lines.push(line('response_item', { type: 'function_call', name, arguments: JSON.stringify(args), call_id }));
      lines.push(line('response_item', { type: 'function_call_output', call_id, output: it.output }));
    }
  });
  return `${lines.join('\n')}\n`;
}

describe('runs in a session digest', () => {
  it('counts no declined call as a run, lists it as declined, and counts no call whose result never came', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const file = join(dir, 'declined.jsonl');
    const session = new ClaudeSession({ sessionId: 'declined-1', cwd: dir })
      .user('Fix the rounding in totals.')
      .toolUse('t1', 'Bash', { command: 'npm test' })
      .toolResult('t1', REJECTED, true)
      .toolUse('t2', 'Bash', { command: 'cd web && npm test 2>&1 | tail -20' })
      .toolResult('t2', `${REJECTED_SAYING}run only the totals tests`, true)
      .toolUse('t3', 'Bash', { command: 'git push origin main' })
      .toolResult('t3', REJECTED, true)
      .toolUse('t4', 'Bash', { command: 'npx vitest run test/totals.test.ts' })
      .toolResult('t4', ' ✓ test/totals.test.ts (4 tests) 9ms\n Tests  4 passed (4)')
      // The session was cut off while the build ran: no result, no run.
      .toolUse('t5', 'Bash', { command: 'npm run build' });
    writeFileSync(file, session.text());
    const { digest, text, line } = await ingestAndShow(d, file, dir);

    expect(digest.commands).toEqual([expect.objectContaining({ command: 'npx vitest run test/totals.test.ts', kind: 'test', runs: 1, failures: 0, ok: true })]);
    expect(digest.declined).toEqual([
      expect.objectContaining({ command: 'npm test', kind: 'test', count: 2 }),
      expect.objectContaining({ command: 'git push origin main', kind: 'push', count: 1 }),
    ]);
    expect(digest.errors).toEqual([]);
    expect(digest.pushes).toEqual([]);
    expect(digest.outcome).toEqual(['tests passing']);
    expect(text).toContain('npx vitest run test/totals.test.ts: 1 run, 0 failed, last passed');
    expect(text).not.toMatch(/npm test:|git push origin main:|npm run build:/);
    expect(line).toBe('2026-10-01: ran npx vitest run test/totals.test.ts passed');
  });

  it('says passed only when the last run passed, counts the failed runs, and reads a check whose status a pipe hides from its report', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const file = join(dir, 'runs.jsonl');
    const failing = 'Exit code 1\n FAIL  test/import.test.ts > streams rows\nAssertionError: expected 3 to be 4\n Tests  1 failed | 3 passed (4)';
    const session = new ClaudeSession({ sessionId: 'runs-1', cwd: dir })
      .user('Make the importer stream its rows.')
      .toolUse('t1', 'Bash', { command: 'npm test' })
      .toolResult('t1', failing, true)
      .toolUse('t2', 'Bash', { command: 'npm test' })
      .toolResult('t2', failing, true)
      .toolUse('t3', 'Bash', { command: 'npm test' })
      .toolResult('t3', ' Tests  4 passed (4)')
      .toolUse('t4', 'Bash', { command: 'npx vitest run test/csv.test.ts' })
      .toolResult('t4', 'Exit code 1\n FAIL  test/csv.test.ts\n Tests  2 failed (2)', true)
      .toolUse('t5', 'Bash', { command: 'npx vitest run test/csv.test.ts' })
      .toolResult('t5', 'Exit code 1\n FAIL  test/csv.test.ts\n Tests  1 failed | 1 passed (2)', true)
      // tail's exit status is 0; eslint's report says it failed.
      .toolUse('t6', 'Bash', { command: 'npm run lint 2>&1 | tail -3' })
      .toolResult('t6', '  4:7  error  x is never reassigned  prefer-const\n\n✖ 2 problems (2 errors, 0 warnings)');
    writeFileSync(file, session.text());
    const { digest, text, line } = await ingestAndShow(d, file, dir);

    expect(digest.commands.map((c) => [c.command, c.runs, c.failures, c.ok])).toEqual([
      ['npm test', 3, 2, true],
      ['npx vitest run test/csv.test.ts', 2, 2, false],
      ['npm run lint', 1, 1, false],
    ]);
    expect(digest.outcome).toEqual(['tests failing', 'lint failing', '2 errors unresolved']);
    expect(text).toContain('npm test: 3 runs, 2 failed, last passed');
    expect(text).toContain('npx vitest run test/csv.test.ts: 2 runs, 2 failed, last failed');
    expect(line).toBe('2026-10-01: ran npm run lint failed, npx vitest run test/csv.test.ts failed (2 runs, both failed), npm test passed (3 runs, 2 failed)');
  });

  it('counts no search whose arguments mention a test command as a check, and sees the runner behind env, npx and its flags', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const file = join(dir, 'search.jsonl');
    const session = new ClaudeSession({ sessionId: 'search-1', cwd: dir })
      .user('How are the tests run here?')
      .toolUse('t1', 'Bash', { command: 'grep -rn "jest\\|vitest" package.json' })
      .toolResult('t1', 'package.json:7:    "test": "vitest run",')
      .toolUse('t2', 'Bash', { command: 'rg "pytest|npm test" docs' })
      .toolResult('t2', 'docs/dev.md:3:Run npm test before pushing.')
      .toolUse('t3', 'Bash', { command: 'grep -rn "npm test" src/' })
      .toolResult('t3', 'src/ci.ts:12:  run("npm test");')
      .toolUse('t4', 'Bash', { command: 'git grep -n "cd app && npm test"' })
      .toolResult('t4', 'README.md:20:    cd app && npm test')
      .toolUse('t5', 'Bash', { command: 'CI=1 npx --yes vitest run' })
      .toolResult('t5', ' Test Files  3 passed (3)\n Tests  9 passed (9)');
    writeFileSync(file, session.text());
    const { digest, text, line } = await ingestAndShow(d, file, dir);

    expect(digest.commands).toEqual([expect.objectContaining({ command: 'npx --yes vitest run', kind: 'test', runs: 1, failures: 0, ok: true })]);
    expect(text).not.toMatch(/vitest" package\.json|npm test"/);
    expect(line).toBe('2026-10-01: ran npx --yes vitest run passed');
  });

  it('reads Codex: a declined command or patch is no run and changed nothing, "Exit code: N" is the exit status, a search is no check', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const file = join(dir, 'rollout-2026-10-02T09-00-00-0199c0de-0000-7000-8000-000000000e19.jsonl');
    const rollout = codexRollout('0199c0de-0000-7000-8000-000000000e19', dir, [
      { user: 'Add VAT to the checkout.' },
      { cmd: 'pnpm test', output: 'exec command rejected by user' },
      { patch: '*** Begin Patch\n*** Update File: src/vat.ts\n@@\n-old\n+new\n*** End Patch', output: 'patch rejected by user' },
      { shell: 'rg -n "pytest|pnpm test" .', output: 'Exit code: 0\nWall time: 0.1 seconds\nOutput:\nREADME.md:4:pnpm test' },
      {
        shell: 'pnpm run build',
        output: "Exit code: 2\nWall time: 4.1 seconds\nOutput:\nsrc/vat.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      },
      { cmd: 'pnpm test', output: 'Chunk ID: c1\nWall time: 2.0 seconds\nProcess exited with code 1\nOutput:\n FAIL  src/vat.test.ts\n' },
      { cmd: 'pnpm test', output: 'Chunk ID: c2\nWall time: 2.0 seconds\nProcess exited with code 0\nOutput:\n Tests  6 passed (6)\n' },
    ]);
    writeFileSync(file, rollout);
    const { digest, text, line } = await ingestAndShow(d, file, dir);

    expect(digest.commands.map((c) => [c.command, c.runs, c.failures, c.ok, c.exitCode])).toEqual([
      ['pnpm run build', 1, 1, false, 2],
      ['pnpm test', 2, 1, true, 0],
    ]);
    expect(digest.declined).toEqual([expect.objectContaining({ command: 'pnpm test', kind: 'test', count: 1 })]);
    expect(digest.files).toEqual([]);
    expect(text).toContain('pnpm run build: 1 run, 1 failed, last failed (exit 2)');
    expect(line).toBe('2026-10-02: ran pnpm test passed (2 runs, 1 failed), pnpm run build failed');
  });
});
