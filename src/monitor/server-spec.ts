/**
 * An MCP server as Claude Code and Codex configure it, read into one shape. Claude Code
 * (`~/.claude.json` `mcpServers` and `projects.<dir>.mcpServers`, `.mcp.json`):
 * `{type?: "stdio", command, args?, env?}` or `{type: "http" | "sse", url, headers?}`, with
 * `${VAR}` and `${VAR:-default}` expanded. Codex (`[mcp_servers.NAME]` of config.toml):
 * `command, args?, env?, cwd?` or `url, http_headers?, bearer_token_env_var?`; `enabled = false` skips it.
 */
import { z } from 'zod';

export type ServerSpec =
  | { transport: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string }
  | { transport: 'http' | 'sse'; url: string; headers: Record<string, string> };

const strings = z.record(z.string());

const ClaudeStdio = z.object({
  type: z.literal('stdio').optional(),
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: strings.default({}),
});
const ClaudeRemote = z.object({ type: z.enum(['http', 'sse']), url: z.string().url(), headers: strings.default({}) });
const ClaudeServer = z.union([ClaudeStdio, ClaudeRemote]);

const CodexServer = z.object({
  command: z.string().min(1).optional(),
  args: z.array(z.string()).default([]),
  env: strings.default({}),
  cwd: z.string().optional(),
  url: z.string().url().optional(),
  http_headers: strings.default({}),
  bearer_token_env_var: z.string().optional(),
  enabled: z.boolean().default(true),
});

/** `${VAR}` / `${VAR:-default}` as Claude Code expands them; an unset one without default stays as written. */
export function expandVars(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (whole, name: string, dflt: string | undefined) => env[name] ?? dflt ?? whole);
}

const expandAll = (r: Record<string, string>, env: NodeJS.ProcessEnv) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, expandVars(v, env)]));

export type Parsed = { ok: true; spec: ServerSpec | null } | { ok: false; reason: string };

function why(err: z.ZodError): string {
  const i = err.issues[0];
  return i ? `${i.path.join('.') || 'entry'}: ${i.message}` : 'not a server definition';
}

export function parseClaudeServer(value: unknown, env: NodeJS.ProcessEnv): Parsed {
  const r = ClaudeServer.safeParse(value);
  if (!r.success) return { ok: false, reason: why(r.error) };
  const s = r.data;
  if ('command' in s)
    return {
      ok: true,
      spec: { transport: 'stdio', command: expandVars(s.command, env), args: s.args.map((a) => expandVars(a, env)), env: expandAll(s.env, env) },
    };
  return { ok: true, spec: { transport: s.type, url: expandVars(s.url, env), headers: expandAll(s.headers, env) } };
}

/** `spec: null`: disabled (`enabled = false`). */
export function parseCodexServer(value: unknown, env: NodeJS.ProcessEnv): Parsed {
  const r = CodexServer.safeParse(value);
  if (!r.success) return { ok: false, reason: why(r.error) };
  const s = r.data;
  if (!s.enabled) return { ok: true, spec: null };
  if (s.command !== undefined)
    return { ok: true, spec: { transport: 'stdio', command: s.command, args: s.args, env: s.env, ...(s.cwd ? { cwd: s.cwd } : {}) } };
  if (s.url === undefined) return { ok: false, reason: 'neither command nor url is set' };
  const token = s.bearer_token_env_var ? env[s.bearer_token_env_var] : undefined;
  return { ok: true, spec: { transport: 'http', url: s.url, headers: { ...s.http_headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) } } };
}
