import { describe, expect, it } from 'vitest';
import { callGist, filledPlaceholders } from '../../../src/memory/transcripts/tool-input.js';

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

describe('filledPlaceholders: the marks of work still to do that a write takes out', () => {
  it('reads the lines an edit replaces that hold a TODO and are not put back', () => {
    const edit = {
      file_path: 'README.md',
      old_string: '# Shop\n**Demo:** _TODO: paste the URL once deployed_',
      new_string: '# Shop\n**Demo:** https://shop.example.org',
    };
    expect(filledPlaceholders('Edit', edit)).toEqual(['**Demo:** _TODO: paste the URL once deployed_']);
    const multi = {
      file_path: 'a.py',
      edits: [
        { old_string: 'x = 1  # FIXME: read from env', new_string: 'x = env("X")' },
        { old_string: 'y', new_string: 'z' },
      ],
    };
    expect(filledPlaceholders('MultiEdit', multi)).toEqual(['x = 1  # FIXME: read from env']);
  });

  it("reads a patch's removed lines, and nothing where the mark stays or no mark is", () => {
    const patch = '*** Begin Patch\n*** Update File: docs/deploy.md\n@@\n-Host: TBD\n+Host: staging-2.internal\n*** End Patch';
    expect(filledPlaceholders('apply_patch', { input: patch })).toEqual(['Host: TBD']);
    // The TODO moved, it was not done; a form field's placeholder and a "todo" in prose are no mark.
    expect(filledPlaceholders('Edit', { file_path: 'a.ts', old_string: '// TODO: retry\nput()', new_string: '// TODO: retry\nawait put()' })).toBeUndefined();
    expect(filledPlaceholders('Edit', { file_path: 'a.tsx', old_string: '<input placeholder="Search" />', new_string: '<input />' })).toBeUndefined();
    expect(filledPlaceholders('Edit', { file_path: 'n.md', old_string: 'my todo list', new_string: 'the list' })).toBeUndefined();
    expect(filledPlaceholders('Write', { file_path: 'n.md', content: 'TODO' })).toBeUndefined();
  });
});
