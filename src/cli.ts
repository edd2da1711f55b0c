#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { AppError } from './errors.js';
import { VERSION } from './version.js';
import { registerDaemonCommands } from './cli/daemon.js';
import { registerServiceCommands } from './cli/service.js';
import { registerTaskCommands } from './cli/tasks.js';
import { registerAgentCommands } from './cli/agent.js';
import { registerIntegrateCommands } from './cli/integrate.js';
import { registerMcpCommands } from './cli/mcp.js';
import { registerDreamCommands } from './cli/dream.js';
import { registerHookCommands } from './cli/hook.js';
import { registerMemoryCommands } from './cli/memory.js';
import { registerRecallCommands } from './cli/recall.js';
import { registerSessionCommands } from './cli/sessions.js';

const program = new Command()
  .name('nightshift')
  .description('Local companion daemon for coding agents: background tasks whose output lives on disk, and memories across sessions.')
  .version(VERSION)
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride()
  // Options after a subcommand belong to it (`dream log --json` is the log's --json, not the dream's).
  .enablePositionalOptions()
  .addHelpText(
    'after',
    `
Environment:
  NIGHTSHIFT_HOME          put config, state and socket under this directory
  NIGHTSHIFT_NO_AUTOSTART  set to 1 so the CLI never starts the daemon itself

Examples:
  id=$(nightshift run -- npm test)   start a task
  nightshift tail -f $id             follow its output until it ends
  nightshift wait $id                exit with its exit code`,
  );

registerDaemonCommands(program);
registerTaskCommands(program);
registerAgentCommands(program);
registerSessionCommands(program);
registerRecallCommands(program);
registerMemoryCommands(program);
registerDreamCommands(program);
registerHookCommands(program);
registerServiceCommands(program);
registerMcpCommands(program);
registerIntegrateCommands(program);

try {
  await program.parseAsync(process.argv);
} catch (err) {
  if (err instanceof CommanderError) {
    process.exitCode = err.exitCode;
  } else if (err instanceof AppError) {
    process.stderr.write(`nightshift: ${err.message}\n`);
    process.exitCode = err.code === 'bad_request' ? 2 : 1;
  } else {
    process.stderr.write(`nightshift: unexpected error: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  }
}
