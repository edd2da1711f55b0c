/**
 * The daemon's process-level handlers, in a real process (the module the daemon installs them from,
 * loaded through tsx: the build bundles it): an unhandled I/O failure is logged and the process
 * serves on; a programming error is logged as fatal, with its stack on stderr, and the process exits 70.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

const SCRIPT = `
const { createLogger } = await import(${JSON.stringify(pathToFileURL(`${SRC}/log.ts`).href)});
const { installProcessErrorHandlers } = await import(${JSON.stringify(pathToFileURL(`${SRC}/daemon/process-errors.ts`).href)});
installProcessErrorHandlers(createLogger('info'));
const io = (message, code) => Object.assign(new Error(message), { code, syscall: 'write' });
switch (process.argv[1]) {
  case 'io-rejection': Promise.reject(io('ENOSPC: no space left on device, write', 'ENOSPC')); break;
  case 'io-exception': setTimeout(() => { throw io('write EPIPE', 'EPIPE'); }, 0); break;
  case 'bug-rejection': Promise.reject(new TypeError('task.run is not a function')); break;
  case 'bug-exception': setTimeout(() => { throw new RangeError('offset out of range'); }, 0); break;
}
setTimeout(() => { process.stdout.write('still serving\\n'); process.exit(0); }, 300);
`;

function run(mode: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    p.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    p.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

describe('process-level error handlers', () => {
  it.each(['io-rejection', 'io-exception'])('%s: logged at error level, and the process serves on', async (mode) => {
    const r = await run(mode);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('still serving');
    const line = JSON.parse(r.stdout.split('\n').find((l) => l.includes('keeps serving')) ?? '{}') as {
      level?: number;
      kind?: string;
      err?: { code?: string };
    };
    expect(line.level).toBe(50);
    expect(line.kind).toBe(mode === 'io-rejection' ? 'unhandled rejection' : 'uncaught exception');
    expect(line.err?.code).toBe(mode === 'io-rejection' ? 'ENOSPC' : 'EPIPE');
  });

  it.each(['bug-rejection', 'bug-exception'])('%s: fatal with its stack, and the process exits 70', async (mode) => {
    const r = await run(mode);
    expect(r.code).toBe(70);
    expect(r.stdout).not.toContain('still serving');
    const line = JSON.parse(r.stdout.split('\n').find((l) => l.includes('programming error')) ?? '{}') as { level?: number };
    expect(line.level).toBe(60);
    expect(r.stderr).toMatch(mode === 'bug-rejection' ? /TypeError: task.run is not a function\n\s+at / : /RangeError: offset out of range\n\s+at /);
  });
});
