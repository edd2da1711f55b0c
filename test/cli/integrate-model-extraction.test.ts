import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { resolvePaths } from '../../src/paths.js';
import { CLI, runCli, stringEnv } from '../helpers/daemon.js';

const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

/** A temporary HOME (the real ~/.claude is never touched) and nightshift home. */
function home(): { env: Record<string, string>; config: string } {
  const dir = mkdtempSync('/tmp/ns-mx-');
  homes.push(dir);
  const env: Record<string, string> = { ...stringEnv(), HOME: dir, NIGHTSHIFT_HOME: join(dir, 'ns'), NIGHTSHIFT_NO_AUTOSTART: '1' };
  delete env.CLAUDE_CONFIG_DIR;
  return { env, config: resolvePaths(env).configFile };
}

describe('integrate claude-code --model-extraction', () => {
  it('without a terminal and without the flag changes no setting and says how to turn it on', async () => {
    const { env, config } = home();
    const r = await runCli(['integrate', 'claude-code'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('to turn it on: nightshift integrate claude-code --model-extraction on');
    expect(existsSync(config)).toBe(false);
    const j = JSON.parse((await runCli(['integrate', 'claude-code', '--json'], env)).stdout) as { notes: string[]; files: unknown[] };
    expect(j.files).toHaveLength(3); // the hook entry, the settings, the MCP registration: no config file
    expect(j.notes.some((n) => n.includes('--model-extraction on'))).toBe(true);
  });

  it('on writes memory.extractor "claude-cli" keeping the rest of the file, off writes "auto"; --uninstall leaves it', async () => {
    const { env, config } = home();
    mkdirSync(dirname(config), { recursive: true });
    const before = '{\n\t"logLevel": "warn",\n\t"memory": {\n\t\t"maxPerSession": 5\n\t}\n}\n';
    writeFileSync(config, before);

    const on = await runCli(['integrate', 'claude-code', '--model-extraction', 'on'], env);
    expect(on.code, on.stderr).toBe(0);
    expect(on.stdout).toContain('set memory.extractor to "claude-cli"');
    expect(on.stdout).toContain('takes effect when the daemon restarts');
    expect(readFileSync(config, 'utf8')).toBe('{\n\t"logLevel": "warn",\n\t"memory": {\n\t\t"maxPerSession": 5,\n\t\t"extractor": "claude-cli"\n\t}\n}\n');
    expect(loadConfig(config).memory).toMatchObject({ extractor: 'claude-cli', maxPerSession: 5 });
    expect(readdirSync(dirname(config)).filter((n) => n.startsWith('config.json.bak-'))).toHaveLength(1);

    // Asked no more: the setting is made.
    const again = await runCli(['integrate', 'claude-code'], env);
    expect(again.stdout).not.toContain('--model-extraction');

    const un = await runCli(['integrate', 'claude-code', '--uninstall', '--model-extraction', 'off'], env);
    expect(un.code, un.stderr).toBe(0);
    expect(loadConfig(config).memory.extractor).toBe('claude-cli');

    const off = await runCli(['integrate', 'claude-code', '--model-extraction', 'off', '--json'], env);
    expect(off.code, off.stderr).toBe(0);
    expect(loadConfig(config)).toMatchObject({ logLevel: 'warn', memory: { extractor: 'auto', maxPerSession: 5 } });
    const offAgain = JSON.parse((await runCli(['integrate', 'claude-code', '--model-extraction', 'off', '--json'], env)).stdout) as { changed: boolean };
    expect(offAgain.changed).toBe(false);
  });

  // A terminal through script(1): the question is asked once, the answer written.
  it.skipIf(!existsSync('/usr/bin/script'))('asks once on a terminal (default yes), then no more', async () => {
    const { env, config } = home();
    const onTty = (input: string) =>
      new Promise<string>((resolve) => {
        const p = spawn('/usr/bin/script', ['-qec', `${process.execPath} ${CLI} integrate claude-code`, '/dev/null'], {
          env,
          stdio: ['pipe', 'pipe', 'inherit'],
        });
        let out = '';
        p.stdout.on('data', (c: Buffer) => (out += c.toString()));
        p.on('close', () => resolve(out));
        p.stdin.end(input);
      });
    const first = await onTty('\n');
    expect(first).toContain('Use your Claude login (the claude CLI) to extract memories, up to 400,000 tokens a day? [Y/n]');
    expect(loadConfig(config).memory.extractor).toBe('claude-cli');
    const second = await onTty('n\n');
    expect(second).not.toContain('[Y/n]');
    expect(loadConfig(config).memory.extractor).toBe('claude-cli');
  });

  it('creates the config file when there is none; a wrong value is a usage error', async () => {
    const { env, config } = home();
    const dry = await runCli(['integrate', 'claude-code', '--model-extraction', 'on', '--dry-run'], env);
    expect(dry.code, dry.stderr).toBe(0);
    expect(existsSync(config)).toBe(false);
    expect((await runCli(['integrate', 'claude-code', '--model-extraction', 'on'], env)).code).toBe(0);
    expect(JSON.parse(readFileSync(config, 'utf8'))).toEqual({ memory: { extractor: 'claude-cli' } });
    const bad = await runCli(['integrate', 'claude-code', '--model-extraction', 'maybe'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--model-extraction must be on or off');
  });
});
