/** Finds the MCP servers configured for Claude Code and Codex, and reads one of them again at check time. */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import type { ServerSource } from '../api/monitors.js';
import { isErrno } from '../errors.js';
import { parseClaudeServer, parseCodexServer, type Parsed, type ServerSpec } from './server-spec.js';

export interface Found {
  server: string;
  source: ServerSource;
  spec: ServerSpec;
}

export interface Discovery {
  found: Found[];
  skipped: { file: string; reason: string }[];
}

/** `~/.claude.json` (inside CLAUDE_CONFIG_DIR when set) and `$CODEX_HOME/config.toml`. */
export function configFiles(env: NodeJS.ProcessEnv): { claude: string; codex: string } {
  const home = env.HOME ?? homedir();
  return {
    claude: env.CLAUDE_CONFIG_DIR ? join(env.CLAUDE_CONFIG_DIR, '.claude.json') : join(home, '.claude.json'),
    codex: join(env.CODEX_HOME ?? join(home, '.codex'), 'config.toml'),
  };
}

type Table = Record<string, unknown>;
const isTable = (v: unknown): v is Table => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The file as a table; null when it does not exist; a string saying what is wrong with it. */
function readTable(file: string, kind: 'json' | 'toml'): Table | null | string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return isErrno(err, 'ENOENT') ? null : `cannot read it: ${(err as Error).message}`;
  }
  try {
    if (kind === 'toml') return parseToml(text) as Table;
    const errors: ParseError[] = [];
    const v: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
    if (errors.length > 0 || !isTable(v)) return 'not valid JSON';
    return v;
  } catch (err) {
    return `not valid TOML: ${(err as Error).message.split('\n')[0] ?? ''}`;
  }
}

/** The servers table of one source within its file's content. */
function serversOf(doc: Table, source: ServerSource): unknown {
  switch (source.kind) {
    case 'claude-user':
    case 'mcp-json':
      return doc.mcpServers;
    case 'claude-local': {
      const projects = doc.projects;
      const entry = isTable(projects) ? projects[source.project ?? ''] : undefined;
      return isTable(entry) ? entry.mcpServers : undefined;
    }
    case 'codex':
      return doc.mcp_servers;
  }
}

function parseEntry(source: ServerSource, value: unknown, env: NodeJS.ProcessEnv): Parsed {
  return source.kind === 'codex' ? parseCodexServer(value, env) : parseClaudeServer(value, env);
}

function sourcesFor(project: string, env: NodeJS.ProcessEnv): ServerSource[] {
  const f = configFiles(env);
  return [
    { kind: 'claude-user', file: f.claude },
    { kind: 'claude-local', file: f.claude, project },
    { kind: 'mcp-json', file: join(project, '.mcp.json') },
    { kind: 'codex', file: f.codex },
  ];
}

/** Every server configured for `project` (an absolute directory), in the order Claude Code, .mcp.json, Codex. */
export function discover(project: string, env: NodeJS.ProcessEnv): Discovery {
  const out: Discovery = { found: [], skipped: [] };
  const docs = new Map<string, Table | null | string>();
  for (const source of sourcesFor(project, env)) {
    if (!docs.has(source.file)) docs.set(source.file, readTable(source.file, source.kind === 'codex' ? 'toml' : 'json'));
    const doc = docs.get(source.file);
    if (typeof doc === 'string') {
      if (source.kind !== 'claude-local') out.skipped.push({ file: source.file, reason: doc });
      continue;
    }
    const servers = doc ? serversOf(doc, source) : undefined;
    if (!isTable(servers)) continue;
    for (const [server, value] of Object.entries(servers)) {
      const p = parseEntry(source, value, env);
      if (!p.ok) out.skipped.push({ file: source.file, reason: `${server}: ${p.reason}` });
      else if (p.spec) out.found.push({ server, source, spec: p.spec });
    }
  }
  return out;
}

/** The server's definition as its file says now; a string saying why there is none. */
export function readServer(source: ServerSource, server: string, env: NodeJS.ProcessEnv): ServerSpec | string {
  const doc = readTable(source.file, source.kind === 'codex' ? 'toml' : 'json');
  if (doc === null) return `${source.file} is gone`;
  if (typeof doc === 'string') return `${source.file}: ${doc}`;
  const servers = serversOf(doc, source);
  const value = isTable(servers) ? servers[server] : undefined;
  if (value === undefined) return `${server} is no longer configured in ${source.file}`;
  const p = parseEntry(source, value, env);
  if (!p.ok) return `${source.file}: ${server}: ${p.reason}`;
  return p.spec ?? `${server} is disabled in ${source.file}`;
}
