/**
 * `nightshift doctor`: which memory extractor and dream reviewer run and why, the budget and
 * today's spend, the agent CLIs the daemon finds, and whether the daemon answers. Exit 1 when
 * something configured cannot work (or no daemon answers), 0 otherwise.
 */
import type { Command } from 'commander';
import type { DoctorResponse } from '../api/model-usage.js';
import { withDaemon } from '../client/connect.js';
import { AppError } from '../errors.js';
import { EXIT } from './report.js';
import { printJson } from './print-json.js';

interface DaemonState {
  running: boolean;
  pid?: number;
  version?: string;
  problem?: string;
}

type Report = { ok: boolean; daemon: DaemonState } & Partial<DoctorResponse>;

async function diagnose(): Promise<Report> {
  try {
    const [status, doctor] = await withDaemon(async (c) => Promise.all([c.status(), c.doctor()]));
    const ok = doctor.checks.every((c) => c.ok || !c.blocking);
    return { ok, daemon: { running: true, pid: status.pid, version: status.version }, ...doctor };
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return { ok: false, daemon: { running: false, problem: err.message } };
  }
}

function describe(r: Report): string {
  const d = r.daemon;
  const lines = [`daemon:    ${d.running ? `running (pid ${d.pid}, nightshift ${d.version})` : `not answering: ${d.problem}`}`];
  if (r.extractor) lines.push(`extractor: ${r.extractor.active} (${r.extractor.why})`);
  if (r.reviewer) lines.push(`reviewer:  ${r.reviewer.active} (${r.reviewer.why})`);
  if (r.env)
    lines.push(
      `env:       ${Object.entries(r.env)
        .map(([k, set]) => `${k} ${set ? 'set' : 'not set'}`)
        .join(', ')} (the daemon's)`,
    );
  if (r.budget) lines.push(`budget:    ${r.budget.spentToday} of ${r.budget.dailyTokens} tokens spent today (memory.dailyTokenBudget)`);
  if (r.checks) lines.push('checks:');
  for (const c of r.checks ?? []) lines.push(`  ${c.ok ? 'ok  ' : c.blocking ? 'FAIL' : '--  '}  ${c.name}: ${c.detail}`);
  lines.push(r.ok ? 'nothing configured is broken' : 'something configured cannot work (see above)');
  return `${lines.join('\n')}\n`;
}

export function registerDoctorCommands(program: Command): void {
  program
    .command('doctor')
    .description('which memory extractor and dream reviewer run and why, the daily budget, the agent CLIs found; exit 1 when something configured cannot work')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const r = await diagnose();
      if (o.json) printJson(r);
      else process.stdout.write(describe(r));
      if (!r.ok) process.exitCode = EXIT.failed;
    });
}
