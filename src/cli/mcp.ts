import type { Command } from 'commander';

export function registerMcpCommands(program: Command): void {
  program
    .command('mcp')
    .description('serve the nightshift tools to an agent over MCP (stdio); starts the daemon when needed')
    .addHelpText(
      'after',
      `
Tools: run_task, task_output, send_input, kill_task, list_tasks (background tasks);
       recall, remember, forget, search_sessions (memories).
The server speaks JSON-RPC on stdin/stdout and logs only to stderr. Agents start it themselves:
  nightshift integrate claude-code   register it (and the session hooks) for Claude Code
  nightshift integrate codex         register it for Codex CLI`,
    )
    .action(async () => {
      // Loaded only here: the MCP SDK is not needed by any other command.
      const { runStdioServer } = await import('../mcp/stdio.js');
      await runStdioServer();
    });
}
