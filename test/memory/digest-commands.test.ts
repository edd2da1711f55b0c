/**
 * The pure parts behind a digest's runs: which command of a shell line is a check (its program, not
 * what its arguments mention), when another command's exit status hides its own, what a runner's
 * report says, how a check's runs are worded, and that a digest saved before `declined` existed
 * still loads.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionDigest } from '../../src/api/digest.js';
import { notableCommand, reportsFailure } from '../../src/memory/digest/commands.js';
import { checkText } from '../../src/memory/digest/render.js';
import { DigestStore } from '../../src/memory/digest/store.js';

describe('notableCommand', () => {
  it('counts no search, read or echo whose arguments mention a check', () => {
    for (const line of [
      'grep -rn "npm test" src/',
      'grep -rn "jest\\|vitest" package.json',
      'rg pytest',
      'rg "pytest|npm test" src',
      'git grep -n "cd app && npm test"',
      'ag "go test"',
      'find . -name "*.py" -exec pytest {} \\;',
      "awk '/npm test/' ci.log",
      'echo "then run: npm test; done"',
      'echo $(npm test)',
      'sh -c \'grep -r "npm test" .\'',
      'cat <<EOF > run.sh\nnpm test\nEOF',
    ])
      expect(notableCommand(line), line).toBeUndefined();
  });

  it('finds the runner behind env assignments, wrappers, launchers, `cd x &&` and `bash -c`', () => {
    const cases: [string, string, string][] = [
      ['cd app && npm test 2>&1 | tail -20', 'test', 'npm test'],
      ['FOO=1 CI=true npx --yes vitest run src/a.test.ts', 'test', 'npx --yes vitest run src/a.test.ts'],
      ['timeout 300 pnpm test', 'test', 'pnpm test'],
      ['sudo -E npm test', 'test', 'npm test'],
      ['uv run pytest -q', 'test', 'uv run pytest -q'],
      ['bash -lc "cd /x && cargo test"', 'test', 'cargo test'],
      ['(cd web && npm run build) | tail -3', 'build', 'npm run build'],
      ['pnpm exec tsc --noEmit -p .', 'lint', 'pnpm exec tsc --noEmit -p .'],
      ['git commit -m "run npm test; fix"', 'commit', 'git commit'],
      ['npm test > out.txt 2>&1', 'test', 'npm test'],
    ];
    for (const [line, kind, command] of cases) expect(notableCommand(line), line).toMatchObject({ kind, command });
  });

  it('knows when a later command of the line decides the exit status', () => {
    const masked = (line: string) => notableCommand(line)?.masked;
    expect(masked('npm test')).toBe(false);
    expect(masked('cd app && npm test')).toBe(false);
    expect(masked('npm test && git commit -m x')).toBe(false);
    expect(masked('npm test 2>&1 | tail -5')).toBe(true);
    expect(masked('npm test; echo "exit=$?"')).toBe(true);
    expect(masked('npm test || true')).toBe(true);
  });
});

describe('reportsFailure', () => {
  it('reads the failure summaries of runners, compilers and linters, and not a passing report', () => {
    for (const out of [
      ' FAIL  test/a.test.ts > adds\n Tests  1 failed | 3 passed (4)',
      '=== 2 failed, 10 passed in 1.2s ===',
      '--- FAIL: TestTotals (0.00s)\nFAIL\tledger/totals',
      'test result: FAILED. 3 passed; 1 failed',
      'src/a.ts(3,7): error TS2322: nope',
      '✖ 2 problems (2 errors, 0 warnings)',
      ' ELIFECYCLE  Test failed. See above for more details.',
      'exit=1',
    ])
      expect(reportsFailure(out), out).toBe(true);
    for (const out of [' Tests  4 passed (4)', '=== 12 passed, 1 xfailed in 2.0s ===', '✓ reports 0 failed rows\nexit=0', 'ok  \tledger/totals\t0.2s'])
      expect(reportsFailure(out), out).toBe(false);
  });
});

describe('checkText', () => {
  const check = (runs: number, failures: number, ok: boolean) => checkText({ command: 'npm test', kind: 'test', runs, failures, ok, messageIds: [] });

  it('says passed only when the last run passed, and counts the failed runs', () => {
    expect(check(1, 0, true)).toBe('npm test passed');
    expect(check(1, 1, false)).toBe('npm test failed');
    expect(check(3, 0, true)).toBe('npm test passed (3 runs)');
    expect(check(3, 2, true)).toBe('npm test passed (3 runs, 2 failed)');
    expect(check(2, 2, false)).toBe('npm test failed (2 runs, both failed)');
    expect(check(4, 4, false)).toBe('npm test failed (4 runs, all failed)');
    expect(check(3, 1, false)).toBe('npm test failed (3 runs, 1 failed)');
  });
});

describe('a digest saved before `declined` existed', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('still loads', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ns-digest-store-'));
    dirs.push(dir);
    // As the previous version wrote it: no `declined`.
    const saved = {
      version: 1,
      key: 'k1',
      sessionId: 's1',
      project: '/home/dana/src/ledger',
      firstAt: '2026-03-02T10:01:00.000Z',
      lastAt: '2026-03-02T10:17:30.000Z',
      messages: 34,
      asked: [{ text: 'Use integer cents everywhere.', messageId: 'm2', at: '2026-03-02T10:01:00.000Z' }],
      files: [{ path: 'src/totals.ts', edits: 1, messageIds: ['m15'] }],
      commands: [
        { command: 'npm test', kind: 'test', runs: 2, failures: 1, messageIds: ['m14', 'm20'], ok: true, exitCode: 0, at: '2026-03-02T10:12:30.000Z' },
      ],
      errors: [{ command: 'npm test', text: 'Error: expected 1001', count: 1, messageId: 'm14', fixed: true, fixedBy: 'm20' }],
      commits: [],
      pushes: [],
      pendingTasks: [],
      interrupted: false,
      outcome: ['tests passing'],
      open: [],
      updatedAt: '2026-03-02T10:20:00.000Z',
    };
    writeFileSync(join(dir, 'k1.json'), JSON.stringify(saved));
    const loaded: SessionDigest | undefined = new DigestStore(dir).get('k1');
    expect(loaded).toEqual(saved);
    expect(loaded?.commands.map(checkText)).toEqual(['npm test passed (2 runs, 1 failed)']);
  });
});
