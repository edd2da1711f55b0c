import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { withDaemon } from '../client/connect.js';
import { createMcpServer } from './server.js';

/**
 * Serves MCP over stdin/stdout until the client closes stdin. The daemon is reached through the API
 * client and started in the background when it does not answer (unless NIGHTSHIFT_NO_AUTOSTART=1);
 * nothing but protocol messages is written to stdout.
 */
export async function runStdioServer(): Promise<void> {
  const server = createMcpServer(withDaemon, { cwd: process.cwd() });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  const close = () => void server.close().catch(() => undefined);
  process.stdin.once('end', close);
  process.stdin.once('close', close);
  // A client that went away: nothing left to answer.
  process.stdout.once('error', close);
  await server.connect(transport);
  await closed;
}
