/** The whole CLI (commander): every command, its help and its errors. src/cli.ts loads it when the fast path does not answer. */
import { Command, CommanderError } from 'commander';
import { reportError } from './report.js';
import { commanderExitCode, strictCommands } from './usage.js';
import { VERSION } from '../version.js';
import { registerDaemonCommands } from './daemon.js';
import { registerServiceCommands } from './service.js';
import { registerTaskCommands } from './tasks.js';
import { registerGroupCommands } from './groups.js';
import { registerTaskControlCommands } from './task-control.js';
import { registerAgentCommands } from './agent.js';
import { registerIntegrateCommands } from './integrate.js';
import { registerMcpCommands } from './mcp.js';
import { registerDreamCommands } from './dream.js';
import { registerScheduleCommands } from './schedule.js';
import { registerWorkflowCommands } from './workflow.js';
import { registerHookCommands } from './hook.js';
import { registerMemoryCommands } from './memory.js';
import { registerInjectionCommands } from './injections.js';
import { registerRecallCommands } from './recall.js';
import { registerSessionCommands } from './sessions.js';
import { registerModelUsageCommands } from './model-usage.js';
import { registerDoctorCommands } from './doctor.js';
import { registerMonitorCommands } from './monitor.js';
import { registerUiCommands } from './ui.js';

export async function runCli(argv: string[]): Promise<void> {
  const program = new Command()
    .name('nightshift')
    .description('Local companion daemon for coding agents: background tasks whose output lives on disk, and memories across sessions.')
    .version(VERSION)
    .showHelpAfterError('(run with --help for usage)')
    // One voice for every error: commander's usage errors read like nightshift's own.
    .configureOutput({ outputError: (text, write) => write(text.replace(/^error: /, 'nightshift: ')) })
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
  registerScheduleCommands(program);
  registerWorkflowCommands(program);
  registerTaskControlCommands(program);
  registerGroupCommands(program);
  registerAgentCommands(program);
  registerSessionCommands(program);
  registerRecallCommands(program);
  registerMemoryCommands(program);
  registerInjectionCommands(program);
  registerDreamCommands(program);
  registerModelUsageCommands(program);
  registerDoctorCommands(program);
  registerMonitorCommands(program);
  registerUiCommands(program);
  registerHookCommands(program);
  registerServiceCommands(program);
  registerMcpCommands(program);
  registerIntegrateCommands(program);
  strictCommands(program);

  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      process.exitCode = commanderExitCode(err);
    } else {
      reportError(err);
    }
  }
}
