/** `nightshift usage`: what model calls cost, per day. (cli/usage.ts is about commander's usage errors.) */
import type { Command } from 'commander';
import type { UsageResponse } from '../api/model-usage.js';
import { withDaemon } from '../client/connect.js';
import { loadWidths, table } from './format.js';
import { printJson } from './print-json.js';
import { positiveInt } from './values.js';

const fallbacks = (f: Record<string, number>) =>
  Object.entries(f)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || '-';

/** What the hooks injected, per session, beside what extraction spent. */
function describeInjected(r: UsageResponse): string {
  const rows = (r.injected ?? []).map((s) => [s.lastAt.slice(0, 10), s.sessionId, s.project ?? '-', String(s.injections), String(s.tokens)]);
  if (rows.length === 0) return 'injected: nothing into sessions in these days\n';
  const total = (r.injected ?? []).reduce((n, s) => n + s.tokens, 0);
  return `${table(['LAST', 'SESSION', 'PROJECT', 'INJECTIONS', 'TOKENS INJECTED'], rows)}\ninjected: ${total} tokens into ${rows.length} session(s)\n`;
}

export function describeUsage(r: UsageResponse, days: number): string {
  return `${describeCalls(r, days)}${describeInjected(r)}`;
}

function describeCalls(r: UsageResponse, days: number): string {
  const b = r.budget;
  const budget = `today: ${b.spentToday} of ${b.dailyTokens} tokens of the daily budget (memory.dailyTokenBudget)${b.spentToday >= b.dailyTokens ? ': spent, heuristics until tomorrow' : ''}`;
  if (r.days.length === 0) return `no model calls in the last ${days} day(s)\n${budget}\n`;
  const rows = r.days.flatMap((d) =>
    d.rows.map((x) => [
      d.date,
      x.backend,
      x.purpose,
      String(x.calls),
      String(x.inputTokens),
      String(x.outputTokens),
      x.costUsd === undefined ? '-' : `$${x.costUsd.toFixed(4)}`,
      fallbacks(x.fallbacks),
    ]),
  );
  return `${table(['DAY', 'BACKEND', 'PURPOSE', 'CALLS', 'INPUT', 'OUTPUT', 'COST', 'FALLBACKS'], rows)}\n${budget}\n`;
}

export function registerModelUsageCommands(program: Command): void {
  program
    .command('usage')
    .description(
      'model calls per day: calls, input and output tokens, cost (when the backend says), fallbacks to the heuristics, and the daily budget; tokens the hooks injected per session',
    )
    .option('--days <n>', 'the last N days (default 7)', positiveInt('--days'))
    .option('--json', 'print JSON')
    .action(async (o: { days?: number; json?: boolean }) => {
      const days = o.days ?? 7;
      const r = await withDaemon((c) => c.usage(days));
      if (o.json) return printJson(r);
      await loadWidths(); // a project's path may be any text
      process.stdout.write(describeUsage(r, days));
    });
}
