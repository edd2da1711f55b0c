import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { discover, readServer } from '../../src/monitor/discover.js';
import { tempDirsPerTest } from '../helpers/daemon.js';

const tmp = tempDirsPerTest(afterEach, 'ns-mondisc-');

/** A HOME with Claude Code's and Codex's files as their own `mcp add` commands write them. */
function home() {
  const dir = tmp();
  const project = join(dir, 'proj');
  mkdirSync(project);
  mkdirSync(join(dir, '.codex'));
  writeFileSync(
    join(dir, '.claude.json'),
    JSON.stringify({
      numStartups: 3,
      mcpServers: {
        ustdio: { type: 'stdio', command: 'node', args: ['srv.js', '--token=${TOKEN}'], env: { FOO: '${MISSING:-dflt}' } },
        usse: { type: 'sse', url: 'http://127.0.0.1:2/sse' },
        broken: { type: 'stdio' },
      },
      projects: {
        [project]: { mcpServers: { uhttp: { type: 'http', url: 'http://127.0.0.1:1/mcp', headers: { 'X-A': 'b' } } } },
        '/elsewhere': { mcpServers: { other: { command: 'x' } } },
      },
    }),
  );
  writeFileSync(join(project, '.mcp.json'), JSON.stringify({ mcpServers: { pstdio: { type: 'stdio', command: 'echo', args: ['hi'], env: {} } } }));
  writeFileSync(
    join(dir, '.codex', 'config.toml'),
    [
      'model = "o3"',
      '[mcp_servers.cx]',
      'command = "node"',
      'args = ["a.js"]',
      '[mcp_servers.cx.env]',
      'K = "V"',
      '[mcp_servers.cxh]',
      'url = "http://127.0.0.1:3/mcp"',
      'bearer_token_env_var = "CX_TOKEN"',
      '[mcp_servers.off]',
      'command = "x"',
      'enabled = false',
    ].join('\n'),
  );
  return { dir, project, env: { HOME: dir, TOKEN: 't0k', CX_TOKEN: 'sekret' } };
}

describe('discovering MCP servers', () => {
  it('reads Claude Code user, local and project scopes and Codex, in their real formats', () => {
    const h = home();
    const d = discover(h.project, h.env);
    const byName = Object.fromEntries(d.found.map((f) => [f.server, f]));
    expect(Object.keys(byName)).toEqual(['ustdio', 'usse', 'uhttp', 'pstdio', 'cx', 'cxh']);
    expect(byName.ustdio?.spec).toEqual({ transport: 'stdio', command: 'node', args: ['srv.js', '--token=t0k'], env: { FOO: 'dflt' } });
    expect(byName.ustdio?.source).toEqual({ kind: 'claude-user', file: join(h.dir, '.claude.json') });
    expect(byName.usse?.spec).toEqual({ transport: 'sse', url: 'http://127.0.0.1:2/sse', headers: {} });
    expect(byName.uhttp?.source).toEqual({ kind: 'claude-local', file: join(h.dir, '.claude.json'), project: h.project });
    expect(byName.uhttp?.spec).toEqual({ transport: 'http', url: 'http://127.0.0.1:1/mcp', headers: { 'X-A': 'b' } });
    expect(byName.pstdio?.source.kind).toBe('mcp-json');
    expect(byName.cx?.spec).toEqual({ transport: 'stdio', command: 'node', args: ['a.js'], env: { K: 'V' } });
    expect(byName.cxh?.spec).toEqual({ transport: 'http', url: 'http://127.0.0.1:3/mcp', headers: { Authorization: 'Bearer sekret' } });
    expect(d.skipped).toEqual([{ file: join(h.dir, '.claude.json'), reason: expect.stringContaining('broken') }]);
  });

  it('CODEX_HOME and CLAUDE_CONFIG_DIR move the files; a file that does not parse is reported, not fatal', () => {
    const h = home();
    const codexHome = tmp();
    writeFileSync(join(codexHome, 'config.toml'), '[mcp_servers.x\ncommand = ');
    const d = discover(h.project, { ...h.env, CODEX_HOME: codexHome, CLAUDE_CONFIG_DIR: tmp() });
    expect(d.found.map((f) => f.server)).toEqual(['pstdio']);
    expect(d.skipped).toEqual([{ file: join(codexHome, 'config.toml'), reason: expect.stringContaining('not valid TOML') }]);
  });

  it('reads one server again: an edit is seen, a removal says so', () => {
    const h = home();
    const f = discover(h.project, h.env).found.find((x) => x.server === 'pstdio');
    if (!f) throw new Error('pstdio not found');
    writeFileSync(join(h.project, '.mcp.json'), JSON.stringify({ mcpServers: { pstdio: { command: 'printf', args: [] } } }));
    expect(readServer(f.source, 'pstdio', h.env)).toEqual({ transport: 'stdio', command: 'printf', args: [], env: {} });
    writeFileSync(join(h.project, '.mcp.json'), JSON.stringify({ mcpServers: {} }));
    expect(readServer(f.source, 'pstdio', h.env)).toBe(`pstdio is no longer configured in ${join(h.project, '.mcp.json')}`);
  });
});
