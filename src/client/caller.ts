import type { ApiClient } from './api-client.js';

/**
 * Runs one call against the daemon, the way a surface reaches it: the CLI and the MCP server start
 * the daemon when it does not answer, an agent run retries while it restarts. `idempotent`: the call
 * is safe to repeat after a connection that broke mid-request (reads, waits, kills).
 */
export type Caller = <T>(fn: (c: ApiClient) => Promise<T>, idempotent?: boolean) => Promise<T>;
