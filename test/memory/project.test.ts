import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectKey } from '../../src/project.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('project identity', () => {
  it('is the git root of the cwd, shared by linked worktrees, else the cwd as given', () => {
    const base = mkdtempSync('/tmp/ns-proj-');
    dirs.push(base);
    const repo = join(base, 'repo');
    mkdirSync(join(repo, 'src', 'deep'), { recursive: true });
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', repo, ...args], {
        stdio: 'pipe',
        env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
      });
    git('init', '-q');
    writeFileSync(join(repo, 'a.txt'), 'a');
    git('add', '.');
    git('commit', '-qm', 'init');
    git('worktree', 'add', '-q', join(base, 'wt'));
    expect(projectKey(join(repo, 'src', 'deep'))).toBe(repo);
    expect(projectKey(join(base, 'wt'))).toBe(repo);
    const plain = join(base, 'plain', 'dir');
    mkdirSync(plain, { recursive: true });
    expect(projectKey(plain)).toBe(plain);
    expect(projectKey('/nonexistent/nightshift/project')).toBe('/nonexistent/nightshift/project');
  });
});
