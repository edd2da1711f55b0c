import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI } from '../helpers/daemon.js';

export interface McpSession {
  client: Client;
  pid: number;
  stderr: () => string;
  call: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult>;
  /** Closes the client, then makes sure the server process is gone (SIGKILL by pid if it lingers). */
  close: () => Promise<void>;
}

/** `node dist/cli.js mcp` (or the given command) over stdio, driven by the SDK's own client. */
export async function startMcp(env: Record<string, string>, cwd: string, command = { command: process.execPath, args: [CLI, 'mcp'] }): Promise<McpSession> {
  const transport = new StdioClientTransport({ ...command, env, cwd, stderr: 'pipe' });
  let err = '';
  transport.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const client = new Client({ name: 'nightshift-test', version: '0' });
  await client.connect(transport);
  await client.listTools(); // caches the output schemas: every structured result below is checked against them
  const pid = transport.pid;
  if (pid === null) throw new Error('no MCP server process');
  return {
    client,
    pid,
    stderr: () => err,
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close().catch(() => undefined);
      for (let i = 0; i < 50 && alive(pid); i++) await sleep(20);
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    },
  };
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function text(r: CallToolResult): string {
  return r.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

export function structured<T = Record<string, unknown>>(r: CallToolResult): T {
  if (r.isError) throw new Error(`tool failed: ${text(r)}`);
  return r.structuredContent as T;
}
