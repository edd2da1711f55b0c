import { describe, expect, it } from 'vitest';
import { callGist } from '../../../src/memory/transcripts/tool-input.js';

describe('callGist: what a call does, in words a verdict on it can name', () => {
  it('names a shell command, clipped', () => {
    expect(callGist('Bash', { command: 'git push --force origin main' })).toBe('the command `git push --force origin main`');
    expect(callGist('shell', { command: ['bash', '-lc', 'rm -rf build'] })).toBe('the command `rm -rf build`');
    expect(callGist('Bash', { command: `echo ${'x'.repeat(200)}` })?.length).toBeLessThan(100);
  });

  it('names the file an edit changes and the first line it adds', () => {
    const edit = {
      file_path: '/home/ana/ops/deploy/docker-compose.yml',
      old_string: 'ports:\n  - "127.0.0.1:9000:9000"',
      new_string: 'ports:\n  - "0.0.0.0:9000:9000"',
    };
    expect(callGist('Edit', edit)).toBe('the change to deploy/docker-compose.yml (- "0.0.0.0:9000:9000")');
    expect(callGist('Write', { file_path: 'docs/PLAN.md', content: '# Plan\n\nAdd slugs.\n' })).toBe('the change to docs/PLAN.md');
  });

  it('reads an apply_patch the same way', () => {
    const patch = '*** Begin Patch\n*** Update File: src/db.ts\n@@\n-const pool = 5;\n+const pool = 50;\n*** End Patch';
    expect(callGist('apply_patch', { input: patch })).toBe('the change to src/db.ts (const pool = 50;)');
  });

  it('says nothing of calls that neither run nor write', () => {
    expect(callGist('Read', { file_path: 'src/a.ts' })).toBeUndefined();
    expect(callGist('Grep', { pattern: 'TODO' })).toBeUndefined();
  });
});
