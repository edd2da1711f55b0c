#!/usr/bin/env node
// A tiny MCP server written with the official SDK, for the monitor's tests and bench.
//   node mcp-server.mjs                  stdio
//   node mcp-server.mjs --http PORTFILE  streamable HTTP on 127.0.0.1 (a free port, written to PORTFILE)
// FAKE_MCP_FAIL_FILE: while this file exists, the stdio server exits 1 at start (a broken server).
// FAKE_MCP_LIST_DELAY_MS: tools/list answers after this long (a slow server).
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const delay = Number(process.env.FAKE_MCP_LIST_DELAY_MS ?? 0);

function makeServer() {
  const server = new McpServer({ name: 'fake-mcp', version: '1.0.0' });
  server.registerTool('echo', { description: 'says it back' }, async () => ({ content: [{ type: 'text', text: 'echo' }] }));
  if (delay > 0) {
    server.server.setRequestHandler(ListToolsRequestSchema, async () => {
      await sleep(delay);
      return { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] };
    });
  }
  return server;
}

const http = process.argv.indexOf('--http');
if (http >= 0) {
  const portFile = process.argv[http + 1];
  const httpServer = createServer((req, res) => {
    // Stateless: a server and a transport per request.
    const server = makeServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((err) => {
        res.statusCode = 500;
        res.end(String(err));
      });
  });
  httpServer.listen(0, '127.0.0.1', () => {
    writeFileSync(`${portFile}.tmp`, String(httpServer.address().port));
    renameSync(`${portFile}.tmp`, portFile);
  });
} else {
  const failFile = process.env.FAKE_MCP_FAIL_FILE;
  if (failFile && existsSync(failFile)) {
    process.stderr.write('fake-mcp: configured to fail\n');
    process.exit(1);
  }
  await makeServer().connect(new StdioServerTransport());
}
