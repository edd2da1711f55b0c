/** `workflow …`: run a DAG of tasks from a YAML or JSON file, list, show and kill workflows. */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { shellExitCode } from '../api/task-status.js';
import type { WorkflowView } from '../api/workflows.js';
import type { ApiClient } from '../client/api-client.js';
import { withDaemon } from '../client/connect.js';
import { callerEnv } from '../client/env.js';
import { waitUpTo } from '../client/wait.js';
import { readWorkflowFile } from '../client/workflow-file.js';
import { renderWorkflow, workflowSummary } from '../client/workflow-format.js';
import { getWorkflow, killWorkflow, listWorkflows, runWorkflow } from '../client/workflows.js';
import { ago, clipColumns, loadWidths, table } from './format.js';
import { printJson } from './print-json.js';

const HELP = `
A workflow file (YAML, or JSON when it ends in .json) names tasks and what each needs:

  name: ci
  tasks:
    build:
      command: make -j4            # a line (sh -c) or an argv array
    test:
      command: [npm, test]
      needs: [build]               # starts once build exited 0; skipped if it did not
      timeout: 10m
      retry: 2                     # runs again, up to 2 more times, while it fails
    report:
      command: cat "$NIGHTSHIFT_OUTPUT_TEST" | tail -5
      needs: [test]
      needsAny: true               # starts once test ended, however it ended

Task keys: command, needs, needsAny, group, timeout, retry, retryDelay, cwd (relative to the
file), env, labels, stall. Each task gets NIGHTSHIFT_WORKFLOW=<id> and, for each task it needs,
NIGHTSHIFT_OUTPUT_<NAME> (upper-cased, other characters as _): that task's output (its last attempt).

Examples:
  nightshift workflow run ci.yaml --wait
  nightshift workflow show w1
  nightshift workflow kill w1`;

/** Waits until every task of the workflow has ended (retries followed), then the workflow as it is. */
async function waitForWorkflow(c: ApiClient, id: string): Promise<WorkflowView> {
  for (;;) {
    const w = await getWorkflow(c, id);
    if (w.state !== 'queued' && w.state !== 'running') return w;
    const open = w.nodes.find((n) => n.task && (n.task.state === 'queued' || n.task.state === 'running'));
    if (open?.task) await waitUpTo((fn) => fn(c), open.task.id);
  }
}

/** 0 when every task succeeded, else the exit code of the first to fail (as `wait` gives it). */
function exitCodeOf(w: WorkflowView): number {
  if (w.state === 'succeeded') return 0;
  const ended = (n: WorkflowView['nodes'][number]) => (n.task && 'endedAt' in n.task ? Date.parse(n.task.endedAt) : Infinity);
  const failed = w.nodes.filter((n) => n.state === 'failed').sort((a, b) => ended(a) - ended(b))[0] ?? w.nodes.find((n) => n.state !== 'succeeded');
  return (failed?.task && shellExitCode(failed.task)) || 1;
}

const colour = () => Boolean(process.stdout.isTTY) && !process.env['NO_COLOR'];

export function registerWorkflowCommands(program: Command): void {
  const workflow = program
    .command('workflow')
    .description('run a DAG of tasks from a YAML or JSON file: run, list, show, kill')
    .enablePositionalOptions()
    .addHelpText('after', HELP);
  workflow
    .command('run')
    .description('submit the tasks of a workflow file; prints the workflow id and its tasks')
    .argument('<file>', 'workflow file (.yaml, .yml or .json)')
    .option('--wait', 'wait for every task to end; exit 0 when all succeeded, else with the first failure’s code (as `wait`)')
    .option('--json', 'print the workflow as JSON')
    .addHelpText('after', HELP)
    .action(async (file: string, o: { wait?: boolean; json?: boolean }) => {
      const path = resolve(file);
      const spec = await readWorkflowFile(file);
      let w = await withDaemon((c) => runWorkflow(c, { workflow: spec, file: path, cwd: process.cwd(), env: callerEnv() }));
      if (!o.json) {
        process.stdout.write(`${w.id}\n`);
        await loadWidths();
        const rows = w.nodes.map((n) => [n.name, n.task?.id ?? '-', n.needs.join(', ') || '-']);
        process.stderr.write(`${table(['TASK', 'ID', 'NEEDS'], rows)}\n`);
      }
      if (o.wait) {
        w = await withDaemon((c) => waitForWorkflow(c, w.id));
        process.exitCode = exitCodeOf(w);
        if (!o.json) process.stderr.write(`${renderWorkflow(w)}\n`);
      }
      if (o.json) printJson(w);
    });
  workflow
    .command('list')
    .description('every workflow: state, how many tasks succeeded, file')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const list = await withDaemon((c) => listWorkflows(c));
      if (o.json) return printJson(list);
      if (list.length === 0) return void process.stdout.write('no workflows\n');
      await loadWidths();
      const rows = list.map((w) => [
        w.id,
        clipColumns(w.name ?? '-', 30),
        w.state,
        `${w.nodes.filter((n) => n.state === 'succeeded').length}/${w.nodes.length}`,
        ago(w.createdAt),
        clipColumns(w.file ?? '-', 60),
      ]);
      process.stdout.write(`${table(['ID', 'NAME', 'STATE', 'DONE', 'AGE', 'FILE'], rows)}\n`);
    });
  workflow
    .command('show')
    .description('draw a workflow layer by layer: each task with its id, state and duration, and what it needs')
    .argument('<id>', 'workflow id, e.g. w3')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const w = await withDaemon((c) => getWorkflow(c, id));
      if (o.json) printJson(w);
      else process.stdout.write(`${renderWorkflow(w, { colour: colour() })}\n`);
    });
  workflow
    .command('kill')
    .description('kill the running tasks of a workflow and those that could start next; the rest are skipped')
    .argument('<id>', 'workflow id, e.g. w3')
    .option('--json', 'print the workflow as JSON')
    .action(async (id: string, o: { json?: boolean }) => {
      const w = await withDaemon((c) => killWorkflow(c, id));
      if (o.json) printJson(w);
      else process.stderr.write(`workflow ${w.id}: ${workflowSummary(w)}\n`);
    });
}
