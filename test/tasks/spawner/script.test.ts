/**
 * The spawner's shell script, run by the real /bin/sh: what a wrapper reports when it claims a
 * task, when another wrapper holds it, and when its claim cannot be written (a full tmpfs: the file
 * is created, its line fails with ENOSPC; root only, skipped with the reason otherwise).
 */
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScript } from '../../../src/tasks/spawner/request.js';
import { SPAWNER_SCRIPT } from '../../../src/tasks/spawner/script.js';
import { tools } from '../../../src/tasks/spawner/tools.js';
import { mountTmpfs, unmount } from '../../helpers/tmpfs.js';

const dirs: string[] = [];
const mounts: string[] = [];
afterEach(() => {
  for (const m of mounts.splice(0)) unmount(m);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A task directory (under `parent` when given) with its start request for `true`. */
function taskDir(parent?: string): string {
  const dir = parent ? join(parent, 'task') : mkdtempSync('/tmp/ns-wrapper-');
  if (parent) mkdirSync(dir);
  else dirs.push(dir);
  writeFileSync(join(dir, 'start'), startScript({ dir, command: ['true'], cwd: dir, env: {}, stdin: false, capBytes: 1 << 20 }), { mode: 0o600 });
  return dir;
}

/** Hands the spawner one task directory and returns the report lines until `last` matches one. */
function reports(dir: string, last: RegExp): Promise<string[]> {
  const sh = spawn('/bin/sh', ['-c', SPAWNER_SCRIPT, 'nightshift-spawner', tools.setsid, tools.mkfifo], { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      sh.kill();
      reject(new Error(`no report matching ${String(last)}; got ${JSON.stringify(out)}`));
    }, 10_000);
    sh.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      const lines = out.split('\n').filter(Boolean);
      if (!lines.some((l) => last.test(l))) return;
      clearTimeout(timer);
      sh.stdin.end();
      resolve(lines);
    });
    sh.stdin.write(`${dir}\n`);
  });
}

describe('a wrapper', () => {
  it('claims the task, starts it and reports its start and end', async () => {
    const dir = taskDir();
    const lines = await reports(dir, /^x /);
    expect(lines[0]).toMatch(new RegExp(`^s \\d+ \\d+ \\d+ ${dir}$`));
    expect(lines[1]).toBe(`x 0 ${dir}`);
    expect(readFileSync(join(dir, 'wrapper'), 'utf8')).toMatch(/^\d+ \d+ \S+ \d+\n$/);
  });

  it('leaves a task another wrapper holds: duplicate, nothing run', async () => {
    const dir = taskDir();
    writeFileSync(join(dir, 'wrapper'), '1 2 boot 2048\n');
    expect(await reports(dir, /./)).toEqual([`d ${dir}`]);
  });

  it('whose claim cannot be written (a full disk) reports a failed start, not a duplicate', async (ctx) => {
    const root = mkdtempSync('/tmp/ns-wrapper-full-');
    dirs.push(root);
    const why = mountTmpfs(root, '1m');
    if (why) ctx.skip(why);
    mounts.push(root);
    const dir = taskDir(root);
    try {
      for (;;) appendFileSync(join(root, 'filler'), Buffer.alloc(64 * 1024));
    } catch {
      // ENOSPC: the disk is full
    }
    expect(await reports(dir, /./)).toEqual([`e claim ${dir}`]);
    expect(readFileSync(join(dir, 'wrapper'), 'utf8')).toBe(''); // created, its line not written
  });
});
