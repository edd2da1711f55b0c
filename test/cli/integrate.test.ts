import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseTomlText } from 'smol-toml';
import { afterEach, describe, expect, it } from 'vitest';
import type { Invocation } from '../../src/integrate/command.js';
import { installCodex, uninstallCodex } from '../../src/integrate/codex.js';
import { isNightshiftHook, uninstallMcp } from '../../src/integrate/claude-code.js';
import { scanToml } from '../../src/integrate/toml.js';
import { CLI, runCli, stringEnv } from '../helpers/daemon.js';
import { startMcp } from '../mcp/mcp-client.js';

const NODE = process.execPath;
const homes: string[] = [];
afterEach(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});

/** A temporary HOME: the real ~/.claude, ~/.claude.json and ~/.codex are never touched. */
function home(): { dir: string; env: Record<string, string> } {
  const dir = mkdtempSync('/tmp/ns-integrate-');
  homes.push(dir);
  const env: Record<string, string> = { ...stringEnv(), HOME: dir, NIGHTSHIFT_NO_AUTOSTART: '1' };
  delete env.CLAUDE_CONFIG_DIR;
  delete env.CODEX_HOME;
  delete env.XDG_CONFIG_HOME;
  delete env.XDG_STATE_HOME;
  return { dir, env };
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
const read = (f: string) => readFileSync(f, 'utf8');
const backups = (f: string) => readdirSync(dirname(f)).filter((n) => n.startsWith(`${f.split('/').pop()}.bak-`));
const write = (f: string, text: string) => {
  mkdirSync(dirname(f), { recursive: true });
  writeFileSync(f, text);
};

/** The hook entry integrate writes for a HOME, and the command of one hook that runs it. */
const entryOf = (dir: string) => join(dir, '.local', 'state', 'nightshift', 'nightshift-hook.sh');
const hookIn = (dir: string) => (event: string) => `/bin/sh ${entryOf(dir)} ${event}`;

describe('nightshift integrate claude-code', () => {
  const settingsBefore = {
    model: 'opus',
    permissions: { allow: ['Bash(npm test)'] },
    hooks: {
      SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo other-tool', timeout: 5 }] }],
      PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/usr/local/bin/guard' }] }],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: '/usr/local/bin/prompt-guard' }] }],
    },
  };
  const stateBefore = { numStartups: 12, projects: { '/x': { allowedTools: [] } }, mcpServers: { other: { type: 'stdio', command: 'other-mcp', args: [] } } };

  it('merges the hooks and the MCP server, keeps a backup, changes nothing the second time, and uninstalls exactly', async () => {
    const { dir, env } = home();
    const settings = join(dir, '.claude', 'settings.json');
    const state = join(dir, '.claude.json');
    write(settings, json(settingsBefore));
    write(state, json(stateBefore));

    const hook = hookIn(dir);
    const r = await runCli(['integrate', 'claude-code', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ integration: 'claude-code', action: 'install', changed: true });
    expect(out.files.map((f: { file: string }) => f.file)).toEqual([entryOf(dir), settings, state]);
    expect(out.files[0].changes).toEqual(['wrote the hook entry']);
    expect(out.files[1].changes).toEqual([
      'added the SessionStart hook',
      'added the SessionEnd hook',
      'added the PreCompact hook',
      'added the UserPromptSubmit hook',
    ]);
    expect(out.files[2].changes).toEqual(['registered the MCP server "nightshift"']);
    expect(read(out.files[1].backup)).toBe(json(settingsBefore));
    expect(read(out.files[2].backup)).toBe(json(stateBefore));

    const s = JSON.parse(read(settings));
    expect(s.model).toBe('opus');
    expect(s.permissions).toEqual(settingsBefore.permissions);
    expect(s.hooks.PreToolUse).toEqual(settingsBefore.hooks.PreToolUse);
    expect(s.hooks.SessionStart).toEqual([
      settingsBefore.hooks.SessionStart[0],
      { matcher: '', hooks: [{ type: 'command', command: hook('session-start'), timeout: 10 }] },
    ]);
    expect(s.hooks.SessionEnd).toEqual([{ matcher: '', hooks: [{ type: 'command', command: hook('session-end'), timeout: 30 }] }]);
    expect(s.hooks.PreCompact).toEqual([{ matcher: '', hooks: [{ type: 'command', command: hook('pre-compact'), timeout: 60 }] }]);
    expect(s.hooks.UserPromptSubmit).toEqual([
      settingsBefore.hooks.UserPromptSubmit[0],
      { matcher: '', hooks: [{ type: 'command', command: hook('user-prompt-submit'), timeout: 5 }] },
    ]);
    const st = JSON.parse(read(state));
    expect(st).toMatchObject({ numStartups: 12, projects: stateBefore.projects });
    expect(st.mcpServers).toEqual({ ...stateBefore.mcpServers, nightshift: { type: 'stdio', command: NODE, args: [CLI, 'mcp'], env: {} } });

    const installed = [read(entryOf(dir)), read(settings), read(state)];
    const again = await runCli(['integrate', 'claude-code'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('already set up; nothing changed');
    expect([read(entryOf(dir)), read(settings), read(state)]).toEqual(installed);
    expect([backups(settings).length, backups(state).length]).toEqual([1, 1]);

    const un = await runCli(['integrate', 'claude-code', '--uninstall'], env);
    expect(un.code, un.stderr).toBe(0);
    expect(un.stdout).toContain('removed the SessionStart hook');
    expect(un.stdout).toContain('removed the UserPromptSubmit hook');
    expect(read(settings)).toBe(json(settingsBefore));
    expect(read(state)).toBe(json(stateBefore));
    const un2 = await runCli(['integrate', 'claude-code', '--uninstall', '--json'], env);
    expect(JSON.parse(un2.stdout)).toMatchObject({ action: 'uninstall', changed: false });
    // Codex's hooks may still run it.
    expect(existsSync(entryOf(dir))).toBe(true);
  });

  it('edits only what it adds: odd formatting and key order survive install, and uninstall gives back the very bytes', async () => {
    const { dir, env } = home();
    const settings = join(dir, '.claude', 'settings.json');
    const state = join(dir, '.claude.json');
    // Tabs, CRLF, a one-line hook list, keys in no particular order, a hook of another tool in an event nightshift uses.
    const settingsText =
      '{\r\n\t"permissions" : {"allow":["Bash(ls)"],  "deny":[]},\r\n\t"hooks": {\r\n\t\t"SessionEnd": [{"hooks":[{"type":"command","command":"echo bye"}]}],\r\n' +
      '\t\t"PreToolUse": [ ]\r\n\t},\r\n\t"model":"opus"\r\n}';
    const stateText = '{"numStartups":3,"zeta":{"b":1,"a":2},\n    "mcpServers":   {"other":{"command":"x","args":[]}}   }\n\n';
    write(settings, settingsText);
    write(state, stateText);
    const hook = hookIn(dir);

    const r = await runCli(['integrate', 'claude-code'], env);
    expect(r.code, r.stderr).toBe(0);
    const s = JSON.parse(read(settings));
    expect(s.hooks.SessionEnd).toEqual([
      { hooks: [{ type: 'command', command: 'echo bye' }] },
      { matcher: '', hooks: [{ type: 'command', command: hook('session-end'), timeout: 30 }] },
    ]);
    expect(Object.keys(s)).toEqual(['permissions', 'hooks', 'model']);
    expect(read(settings)).toContain('\t"permissions" : {"allow":["Bash(ls)"],  "deny":[]},\r\n');
    expect(read(settings)).not.toMatch(/[^\r]\n/);
    expect(JSON.parse(read(state)).mcpServers.nightshift.args).toEqual([CLI, 'mcp']);
    expect(read(state).startsWith('{"numStartups":3,"zeta":{"b":1,"a":2},')).toBe(true);

    const un = await runCli(['integrate', 'claude-code', '--uninstall'], env);
    expect(un.code, un.stderr).toBe(0);
    expect(read(settings)).toBe(settingsText);
    expect(read(state)).toBe(stateText);
  });

  it('creates the files when there are none, and --dry-run writes nothing', async () => {
    const { dir, env } = home();
    const dry = await runCli(['integrate', 'claude-code', '--dry-run'], env);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain(`would change ${join(dir, '.claude', 'settings.json')} (new file)`);
    expect(existsSync(join(dir, '.claude'))).toBe(false);
    expect(existsSync(join(dir, '.claude.json'))).toBe(false);

    expect((await runCli(['integrate', 'claude-code'], env)).code).toBe(0);
    expect(Object.keys(JSON.parse(read(join(dir, '.claude', 'settings.json'))).hooks)).toEqual([
      'SessionStart',
      'SessionEnd',
      'PreCompact',
      'UserPromptSubmit',
    ]);
    expect((await runCli(['integrate', 'claude-code', '--uninstall'], env)).code).toBe(0);
    expect(JSON.parse(read(join(dir, '.claude', 'settings.json')))).toEqual({});
    expect(JSON.parse(read(join(dir, '.claude.json')))).toEqual({});
  });

  it('refuses a settings file that is not valid JSON, names it, and changes nothing', async () => {
    const { dir, env } = home();
    const settings = join(dir, '.claude', 'settings.json');
    write(settings, '{ "model": "opus", }\n');
    const r = await runCli(['integrate', 'claude-code'], env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(`${settings} is not valid JSON`);
    expect(read(settings)).toBe('{ "model": "opus", }\n');
    expect(backups(settings)).toEqual([]);
    expect(existsSync(join(dir, '.claude.json'))).toBe(false);

    write(settings, json({ hooks: { SessionStart: 'echo hi' } }));
    const bad = await runCli(['integrate', 'claude-code'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('"hooks.SessionStart" is not a list');
  });

  it('replaces a hook installed from another path instead of adding a second one; writes through a symlink', async () => {
    const { dir, env } = home();
    const real = join(dir, 'dotfiles', 'claude-settings.json');
    const settings = join(dir, '.claude', 'settings.json');
    write(
      real,
      json({ hooks: { SessionEnd: [{ hooks: [{ type: 'command', command: "/old/node '/opt/old nightshift/dist/cli.js' hook session-end", timeout: 99 }] }] } }),
    );
    mkdirSync(dirname(settings), { recursive: true });
    symlinkSync(real, settings);
    const hook = hookIn(dir);
    const r = JSON.parse((await runCli(['integrate', 'claude-code', '--json'], env)).stdout);
    expect(r.files[1].changes).toEqual([
      'added the SessionStart hook',
      'updated the SessionEnd hook command',
      'added the PreCompact hook',
      'added the UserPromptSubmit hook',
    ]);
    const s = JSON.parse(read(real));
    expect(s.hooks.SessionEnd).toEqual([{ hooks: [{ type: 'command', command: hook('session-end'), timeout: 99 }] }]);
    expect(readdirSync(join(dir, '.claude')).some((n) => n.startsWith('settings.json.bak-'))).toBe(true);
    await runCli(['integrate', 'claude-code', '--uninstall'], env);
    expect(JSON.parse(read(real))).toEqual({});
  });

  it('moves hooks installed in the Node form to the shell entry, in place, and leaves other hooks alone', async () => {
    const { dir, env } = home();
    const settings = join(dir, '.claude', 'settings.json');
    const old = (event: string) => `NIGHTSHIFT_HOME=/tmp/ns-old /usr/bin/node '/opt/old ns/dist/cli.js' hook ${event}`;
    const group = (command: string, timeout: number) => ({ matcher: '', hooks: [{ type: 'command', command, timeout }] });
    const before = {
      hooks: {
        SessionStart: [{ matcher: 'startup', hooks: [{ type: 'command', command: 'echo other-tool' }] }, group(old('session-start'), 10)],
        SessionEnd: [group(old('session-end'), 30)],
        PreCompact: [group(old('pre-compact'), 60)],
        UserPromptSubmit: [group(old('user-prompt-submit'), 5)],
      },
    };
    write(settings, json(before));
    const hook = hookIn(dir);
    const r = JSON.parse((await runCli(['integrate', 'claude-code', '--json'], env)).stdout);
    expect(r.files[0].changes).toEqual(['wrote the hook entry']);
    expect(r.files[1].changes).toEqual([
      'updated the SessionStart hook command',
      'updated the SessionEnd hook command',
      'updated the PreCompact hook command',
      'updated the UserPromptSubmit hook command',
    ]);
    expect(JSON.parse(read(settings))).toEqual({
      hooks: {
        SessionStart: [before.hooks.SessionStart[0], group(hook('session-start'), 10)],
        SessionEnd: [group(hook('session-end'), 30)],
        PreCompact: [group(hook('pre-compact'), 60)],
        UserPromptSubmit: [group(hook('user-prompt-submit'), 5)],
      },
    });
    expect(read(entryOf(dir))).toContain(`CLI=${CLI}\n`);
    const again = JSON.parse((await runCli(['integrate', 'claude-code', '--json'], env)).stdout);
    expect(again.changed).toBe(false);
  });

  it('honours CLAUDE_CONFIG_DIR and NIGHTSHIFT_HOME; the hook commands are valid shell and the MCP entry starts the server', async () => {
    const { dir, env } = home();
    const cfg = join(dir, 'claude cfg');
    const nsHome = join(dir, 'ns home');
    const e = { ...env, CLAUDE_CONFIG_DIR: cfg, NIGHTSHIFT_HOME: nsHome };
    expect((await runCli(['integrate', 'claude-code'], e)).code).toBe(0);
    const s = JSON.parse(read(join(cfg, 'settings.json')));
    const start: string = s.hooks.SessionStart[0].hooks[0].command;
    expect(start).toBe(`NIGHTSHIFT_HOME='${nsHome}' /bin/sh '${nsHome}/state/nightshift-hook.sh' session-start`);
    expect(isNightshiftHook(start)).toBe(true);
    // Valid shell that reaches nightshift: no daemon there, so the entry runs the Node hook, which says so.
    const run = spawnSync('/bin/sh', ['-c', start], { env: { PATH: '/usr/bin:/bin', NIGHTSHIFT_NO_AUTOSTART: '1' }, input: '{}', encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain('daemon not running (not starting it: NIGHTSHIFT_NO_AUTOSTART=1)');

    const entry = JSON.parse(read(join(cfg, '.claude.json'))).mcpServers.nightshift;
    expect(entry).toEqual({ type: 'stdio', command: NODE, args: [CLI, 'mcp'], env: { NIGHTSHIFT_HOME: nsHome } });
    const mcp = await startMcp({ ...env, ...entry.env }, dir, { command: entry.command, args: entry.args });
    try {
      expect((await mcp.client.listTools()).tools.filter((t) => !t.description?.startsWith('Deprecated'))).toHaveLength(19);
    } finally {
      await mcp.close();
    }
  });
});

describe('claude-code entries nightshift owns', () => {
  it('recognises its hook commands whatever node and path they were written with, and nothing else', () => {
    for (const c of [
      'nightshift hook session-start',
      '/usr/local/bin/nightshift hook pre-compact',
      "NIGHTSHIFT_HOME=/x '/home/a b/.nvm/node' '/home/a b/nightshift/dist/cli.js' hook session-end",
      '/usr/bin/node /opt/ns/dist/cli.js hook session-start ',
      "NIGHTSHIFT_HOME=/x /usr/bin/node '/opt/ns/dist/cli.js' hook user-prompt-submit",
      '/bin/sh /home/a/.local/state/nightshift/nightshift-hook.sh session-start',
      "NIGHTSHIFT_HOME='/x y' /bin/sh '/x y/state/nightshift-hook.sh' user-prompt-submit",
    ]) {
      expect(isNightshiftHook(c), c).toBe(true);
    }
    for (const c of [
      'echo nightshift hook session-start done',
      'other hook session-start',
      'nightshift hook session-starts',
      'nightshift hook user-prompt-submitted',
      'mynightshift hook session-end',
      'nightshift run -- x',
      '/bin/sh /x/other-hook.sh session-start',
      '/bin/sh /x/nightshift-hook.sh session-started',
    ]) {
      expect(isNightshiftHook(c), c).toBe(false);
    }
  });

  it('leaves an MCP server that is also called nightshift but runs something else', () => {
    const state = { mcpServers: { nightshift: { command: 'docker', args: ['run', 'night/shift'] } } };
    const r = uninstallMcp(state, '~/.claude.json');
    expect(r.changes).toEqual([]);
    expect(r.value).toBe(state);
    expect(r.skipped).toContain('does not run nightshift');
  });
});

/** Parses with a real TOML parser: what the line-based writer writes must be TOML that means what it should. */
function parseToml(text: string): Record<string, unknown> {
  return parseTomlText(text) as Record<string, unknown>;
}

describe('nightshift integrate codex', () => {
  const original = `# my codex config
model = "o3"
notes = """
[mcp_servers.nightshift]
command = "not a table"
"""

[mcp_servers.other]
command = "other"
args = [
  "a",
[ "nested" ],
]

# trailing comment
[profiles.x]
model = "gpt" # inline comment
`;

  it('appends the table, keeps every other byte, is idempotent, and uninstalls to the identical file', async () => {
    const { dir, env } = home();
    const file = join(dir, '.codex', 'config.toml');
    write(file, original);
    const r = await runCli(['integrate', 'codex', '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.files[0]).toMatchObject({ file: entryOf(dir), changed: true, changes: ['wrote the hook entry'] });
    expect(out.files[1]).toMatchObject({ file, changed: true, changes: ['added [mcp_servers.nightshift]'] });
    expect(read(out.files[1].backup)).toBe(original);
    const text = read(file);
    expect(text.startsWith(original)).toBe(true);
    expect(text.slice(original.length)).toBe(
      `\n[mcp_servers.nightshift]\n# added by \`nightshift integrate codex\`; remove with \`nightshift integrate codex --uninstall\`\n` +
        `command = ${JSON.stringify(NODE)}\nargs = [${JSON.stringify(CLI)}, "mcp"]\n`,
    );
    const parsed = parseToml(text) as { mcp_servers: Record<string, unknown>; notes: string };
    expect(parsed.mcp_servers.nightshift).toEqual({ command: NODE, args: [CLI, 'mcp'] });
    expect(parsed.mcp_servers.other).toEqual({ command: 'other', args: ['a', ['nested']] });
    expect(parsed.notes).toContain('[mcp_servers.nightshift]');

    const again = await runCli(['integrate', 'codex'], env);
    expect(again.stdout).toContain('already set up; nothing changed');
    expect(read(file)).toBe(text);
    expect(backups(file)).toHaveLength(1);

    expect((await runCli(['integrate', 'codex', '--uninstall'], env)).code).toBe(0);
    expect(read(file)).toBe(original);
  });

  it('creates ~/.codex/config.toml (or $CODEX_HOME/config.toml) and the entry starts the server', async () => {
    const { dir, env } = home();
    const codexHome = join(dir, 'codex-home');
    homes.push('/tmp/ns "q"'); // the hook entry goes to its state directory
    expect((await runCli(['integrate', 'codex'], { ...env, CODEX_HOME: codexHome, NIGHTSHIFT_HOME: '/tmp/ns "q"' })).code).toBe(0);
    const text = read(join(codexHome, 'config.toml'));
    expect(text).toContain('env = { NIGHTSHIFT_HOME = "/tmp/ns \\"q\\"" }');
    const parsed = parseToml(text) as { mcp_servers: { nightshift: { command: string; args: string[]; env: Record<string, string> } } };
    expect(parsed.mcp_servers.nightshift).toEqual({ command: NODE, args: [CLI, 'mcp'], env: { NIGHTSHIFT_HOME: '/tmp/ns "q"' } });
    expect((await runCli(['integrate', 'codex'], env)).code).toBe(0);
    const plain = read(join(dir, '.codex', 'config.toml'));
    const mcp = await startMcp(env, dir, { command: NODE, args: [CLI, 'mcp'] });
    try {
      expect(plain).toContain(`args = [${JSON.stringify(CLI)}, "mcp"]`);
      expect((await mcp.client.listTools()).tools.map((t) => t.name)).toContain('task_run');
    } finally {
      await mcp.close();
    }
  });

  it('refuses what it cannot edit safely, naming the file and line, and changes nothing', async () => {
    const { dir, env } = home();
    const file = join(dir, '.codex', 'config.toml');
    for (const [text, message] of [
      ['[mcp_servers]\nnightshift = { command = "x" }\n', /line 2: mcp_servers\.nightshift is defined outside/],
      ['mcp_servers = { other = { command = "x" } }\n', /line 1: mcp_servers is an inline table/],
      ['model = "o3\n', /not valid TOML \(line 1: unterminated string\)/],
      ['[[mcp_servers.nightshift]]\ncommand = "x"\n', /array of tables/],
    ] as const) {
      write(file, text);
      const r = await runCli(['integrate', 'codex'], env);
      expect(r.code, text).not.toBe(0);
      expect(r.stderr, text).toContain(file);
      expect(r.stderr, text).toMatch(message);
      expect(read(file)).toBe(text);
    }
    expect(backups(file)).toEqual([]);
  });
});

describe('codex config.toml edits (line-based)', () => {
  const inv: Invocation = { node: '/usr/bin/node', cli: '/opt/nightshift/dist/cli.js', env: {}, hookEntry: '/x/nightshift-hook.sh' };
  const block = (i: Invocation = inv) => installCodex('', i, 'f').text;

  it('rewrites an existing table and its sub-tables in place', () => {
    const before = `a = 1\n\n[mcp_servers.nightshift]\ncommand = "/old/node"\nargs = ["/old/cli.js", "mcp"]\n\n[mcp_servers.nightshift.env]\nX = "1"\n\n# about b\n[b]\nc = 2\n`;
    const after = installCodex(before, inv, 'f');
    expect(after.changes).toEqual(['updated [mcp_servers.nightshift]']);
    expect(after.text).toBe(`a = 1\n\n${block()}\n# about b\n[b]\nc = 2\n`);
    expect(parseToml(after.text)).toEqual({ a: 1, mcp_servers: { nightshift: { command: inv.node, args: [inv.cli, 'mcp'] } }, b: { c: 2 } });
    expect(installCodex(after.text, inv, 'f').changes).toEqual([]);
    expect(uninstallCodex(after.text, 'f').text).toBe('a = 1\n\n# about b\n[b]\nc = 2\n');
  });

  it('keeps CRLF line ends and a file without a final newline', () => {
    const crlf = 'a = 1\r\n[b]\r\nc = "x"\r\n';
    const t = installCodex(crlf, inv, 'f').text;
    expect(t.startsWith(crlf)).toBe(true);
    expect(t.slice(crlf.length).split('\r\n').length).toBe(6);
    expect(t.slice(crlf.length)).not.toMatch(/[^\r]\n/);
    expect(parseToml(t)).toEqual({ a: 1, b: { c: 'x' }, mcp_servers: { nightshift: { command: inv.node, args: [inv.cli, 'mcp'] } } });
    expect(uninstallCodex(t, 'f').text).toBe(crlf);
    const noEol = 'a = 1';
    expect(installCodex(noEol, inv, 'f').text).toBe(`a = 1\n\n${block()}`);
  });

  it('recognises headers only outside strings and arrays, with quoted and spaced keys', () => {
    const lines = scanToml(`x = '''\n[not.a.header]\n'''\ny = [\n[1],\n]\n[ mcp_servers . "nightshift" ] # c\nz = "a\\"[q]"\n`);
    expect(lines.map((l) => l.kind)).toEqual(['keyvalue', 'continuation', 'continuation', 'keyvalue', 'continuation', 'continuation', 'header', 'keyvalue']);
    expect(lines[6]?.key).toEqual(['mcp_servers', 'nightshift']);
    expect(lines[7]?.key).toEqual(['mcp_servers', 'nightshift', 'z']);
    const spaced = `[ mcp_servers . "nightshift" ]\ncommand = "x"\n`;
    expect(installCodex(spaced, inv, 'f').text).toBe(block());
  });

  it('escapes paths for TOML', () => {
    const odd: Invocation = { node: '/n o\\de"', cli: '/c\u0001li.js', env: { 'A B': 'v' }, hookEntry: '/x/nightshift-hook.sh' };
    const t = block(odd);
    expect(t).toContain('command = "/n o\\\\de\\""');
    expect(t).toContain('args = ["/c\\u0001li.js", "mcp"]');
    expect(t).toContain('env = { "A B" = "v" }');
    const parsed = parseToml(t) as { mcp_servers: { nightshift: unknown } };
    expect(parsed.mcp_servers.nightshift).toEqual({ command: odd.node, args: [odd.cli, 'mcp'], env: { 'A B': 'v' } });
  });
});
