/** `nightshift monitor add|rm|check` and `nightshift monitors`: health checks of the MCP servers Claude Code and Codex use. */
import type { Command } from 'commander';
import type { Monitor } from '../api/monitors.js';
import { withDaemon } from '../client/connect.js';
import { AppError } from '../errors.js';
import { durationText } from '../api/format.js';
import { durationMs } from './duration.js';
import { ago, loadWidths, table } from './format.js';
import { printJson } from './print-json.js';
import { resolvePath } from './values.js';

const latency = (ms: number | null | undefined) => (ms === null || ms === undefined ? '-' : `${ms}ms`);

export async function monitorTable(monitors: Monitor[]): Promise<string> {
  if (monitors.length === 0) return 'no monitors (add them with `nightshift monitor add mcp --all`)\n';
  await loadWidths();
  const rows = monitors.map((m) => [
    m.id,
    m.name,
    m.transport,
    m.state,
    ago(m.since),
    m.last ? `${ago(m.last.at)} ago` : '-',
    latency(m.last?.latencyMs),
    latency(m.p50Ms),
    durationText(m.intervalMs),
    m.last?.error ?? '',
  ]);
  return `${table(['ID', 'NAME', 'TRANSPORT', 'STATE', 'FOR', 'CHECKED', 'LATENCY', 'P50', 'EVERY', 'ERROR'], rows)}\n`;
}

const ADD_HELP = `
Reads the MCP servers configured for Claude Code and Codex:
  ~/.claude.json          "mcpServers" (user scope) and "projects.<DIR>.mcpServers" (local scope)
                          ($CLAUDE_CONFIG_DIR/.claude.json when CLAUDE_CONFIG_DIR is set)
  <DIR>/.mcp.json         "mcpServers" (project scope)
  ~/.codex/config.toml    [mcp_servers.NAME] ($CODEX_HOME/config.toml when CODEX_HOME is set)
DIR is --project (default: the current directory). The definition is read again at every check, so an
edit to the file is picked up and its env values are never copied into nightshift's state.

Each check connects with the official MCP SDK client (a stdio server is started, then closed and, if
it does not exit, killed), initializes and lists the tools. up: both answered within --slow;
degraded: slower, or tools could not be listed; down: no answer within --timeout, or an error.

Examples:
  nightshift monitor add mcp --all
  nightshift monitor add mcp github --interval 30s --timeout 5s`;

export function registerMonitorCommands(program: Command): void {
  const monitor = program.command('monitor').description('health monitors of MCP servers: add, rm, check (list them with `nightshift monitors`)');

  monitor
    .command('add')
    .description('monitor MCP servers')
    .command('mcp [name]')
    .description('monitor one MCP server configured for Claude Code or Codex, or all of them (--all)')
    .option('--all', 'every server found')
    .option('--project <dir>', 'the project whose .mcp.json and ~/.claude.json entry are read (default: cwd)')
    .option('--interval <duration>', 'time between checks (default 60s)', durationMs('--interval'))
    .option('--timeout <duration>', 'a check with no answer by then is down (default 10s)', durationMs('--timeout'))
    .option('--slow <duration>', 'a check slower than this is degraded (default: half the timeout)', durationMs('--slow'))
    .option('--json', 'print JSON')
    .addHelpText('after', ADD_HELP)
    .action(async (name: string | undefined, o: { all?: boolean; project?: string; interval?: number; timeout?: number; slow?: number; json?: boolean }) => {
      if ((name === undefined) === !o.all) throw new AppError('bad_request', 'give a server name or --all (and not both)');
      const r = await withDaemon((c) =>
        c.addMonitors({
          ...(name !== undefined ? { name } : { all: true }),
          project: resolvePath(o.project ?? process.cwd()),
          ...(o.interval !== undefined && { intervalMs: o.interval }),
          ...(o.timeout !== undefined && { timeoutMs: o.timeout }),
          ...(o.slow !== undefined && { slowMs: o.slow }),
        }),
      );
      if (o.json) return printJson(r);
      const lines = [
        ...r.added.map((m) => `added ${m.id} ${m.name} (${m.transport}, from ${m.source.file}), every ${durationText(m.intervalMs)}`),
        ...r.existing.map((m) => `already monitored: ${m.id} ${m.name}`),
        ...r.skipped.map((s) => `skipped in ${s.file}: ${s.reason}`),
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
    });

  monitor
    .command('rm <ref>')
    .description('stop monitoring a server (monitor id or name)')
    .option('--json', 'print JSON')
    .action(async (ref: string, o: { json?: boolean }) => {
      const m = await withDaemon((c) => c.removeMonitor(ref));
      if (o.json) return printJson({ monitor: m });
      process.stdout.write(`removed ${m.id} ${m.name}\n`);
    });

  monitor
    .command('check <ref>')
    .description('check a server now (monitor id or name); exit 1 when it is down')
    .option('--json', 'print JSON')
    .action(async (ref: string, o: { json?: boolean }) => {
      const m = await withDaemon((c) => c.checkMonitor(ref));
      if (m.state === 'down') process.exitCode = 1;
      if (o.json) return printJson({ monitor: m });
      process.stdout.write(
        `${m.name}: ${m.state}, ${latency(m.last?.latencyMs)}${m.last?.tools !== undefined ? `, ${m.last.tools} tools` : ''}${m.last?.error ? `: ${m.last.error}` : ''}\n`,
      );
    });

  program
    .command('monitors')
    .description('MCP server monitors: state, since when, last check, its latency, the median latency (P50) of the recent checks, the error')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const monitors = await withDaemon((c) => c.monitors());
      if (o.json) return printJson({ monitors });
      process.stdout.write(await monitorTable(monitors));
    });
}
