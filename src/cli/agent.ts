import { endedAs } from '../api/task-status.js';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { AppError } from '../errors.js';
import { withDaemon } from '../client/connect.js';
import { callerEnv } from '../client/env.js';
import { printJson } from './print-json.js';
import { positiveInt } from './values.js';

interface AgentOptions {
  cwd?: string;
  model?: string;
  contextWindow?: number;
  maxOutputTokens?: number;
  maxTurns?: number;
  resume?: string;
  name?: string;
  json?: boolean;
}

export function registerAgentCommands(program: Command): void {
  program
    .command('agent')
    .description('start an agent task: a coding agent on a Claude model, in the background like any task; prints its id')
    .argument('[prompt...]', 'the task (after --); "-" reads it from stdin')
    .option('--cwd <dir>', "working directory (default: the current one; with --resume: the resumed task's)")
    .option('--model <model>', 'model name (default: NIGHTSHIFT_AGENT_MODEL or ANTHROPIC_MODEL of the daemon, else claude-sonnet-4-6)')
    .option('--context-window <tokens>', "context window in tokens (default: the model's)", positiveInt('--context-window'))
    .option(
      '--max-output-tokens <n>',
      "max_tokens of each request, reserved out of the window (default: the model's, at most 32,000)",
      positiveInt('--max-output-tokens'),
    )
    .option('--max-turns <n>', 'model requests at most (default 200)', positiveInt('--max-turns'))
    .option('--resume <id>', 'continue a stopped or lost agent task in a new task (a prompt, if given, is added to it)')
    .option('--name <name>', 'a label for the task')
    .option('--json', 'print the task as JSON')
    .addHelpText(
      'after',
      "\nThe model comes from the daemon's environment (ANTHROPIC_API_KEY, or ANTHROPIC_BASE_URL for a compatible endpoint).\n" +
        'Examples:\n  id=$(nightshift agent -- "make the failing test in test/api.test.ts pass")\n  nightshift tail -f $id\n' +
        '  nightshift compact $id          # compact its context at the next turn\n  nightshift agent --resume $id   # continue it after a kill or a crash',
    )
    .action(async (words: string[], o: AgentOptions) => {
      let prompt = words.join(' ').trim();
      if (prompt === '-') prompt = readFileSync(0, 'utf8').trim();
      if (!prompt && !o.resume) throw new AppError('bad_request', 'no task given: nightshift agent -- "what to do" (or --resume ID)');
      const task = await withDaemon((c) =>
        c.agent({
          ...(prompt ? { prompt } : {}),
          ...(o.cwd || !o.resume ? { cwd: resolve(o.cwd ?? process.cwd()) } : {}),
          env: callerEnv(),
          ...(o.model ? { model: o.model } : {}),
          ...(o.contextWindow !== undefined ? { contextWindow: o.contextWindow } : {}),
          ...(o.maxOutputTokens !== undefined ? { maxOutputTokens: o.maxOutputTokens } : {}),
          ...(o.maxTurns !== undefined ? { maxTurns: o.maxTurns } : {}),
          ...(o.resume ? { resume: o.resume } : {}),
          ...(o.name ? { name: o.name } : {}),
        }),
      );
      const failed = endedAs(task, 'failed_to_start');
      if (failed) throw new AppError('spawn_failed', `agent task ${task.id} failed to start: ${failed.error}`);
      if (o.json) printJson(task);
      else process.stdout.write(`${task.id}\n`);
    });

  program
    .command('compact')
    .description('ask a running agent task to compact its context at its next turn boundary')
    .argument('<id>')
    .option('--json', 'print the task as JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const task = await withDaemon((c) => c.compact(id));
      if (o.json) printJson(task);
      else process.stdout.write(`agent task ${task.id} will compact its context at its next turn boundary\n`);
    });

  program
    .command('agent-run', { hidden: true })
    .description('the process of an agent task (started by the daemon)')
    .requiredOption('--spec <file>', "the task's agent.json")
    .action(async (o: { spec: string }) => {
      const { runAgentTask } = await import('../agent/run.js');
      process.exitCode = await runAgentTask(resolve(o.spec));
    });
}
