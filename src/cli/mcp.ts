import type { Command } from 'commander';

export function registerMcpCommands(program: Command): void {
  program
    .command('mcp')
    .description('serve the nightshift tools to an agent over MCP (stdio); starts the daemon when needed')
    .addHelpText(
      'after',
      `
Tools (named noun_verb): task_run, task_output, task_input, task_kill, task_list, task_pause,
       task_resume, task_restart (background tasks); schedule_add, schedule_list, schedule_remove;
       workflow_run, workflow_show; memory_recall, memory_remember, memory_forget, session_search
       (memories); monitor_list. The old names (run_task, recall, …) work until the next release.
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
