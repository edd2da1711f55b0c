import type { Command } from 'commander';
import type { DreamReport, ReportMemory } from '../api/dream.js';
import { escapeControls } from '../api/recall-render.js';
import { withDaemon } from '../client/connect.js';
import { ago, loadWidths, table } from './format.js';
import { printJson } from './print-json.js';

function describeReport(r: DreamReport): string {
  const p = r.phases;
  const lines = [
    `dream ${r.id} (${r.trigger}${r.dryRun ? ', dry run: nothing changed' : ''}) started ${r.startedAt}, took ${r.durationMs} ms`,
    `orient:      ${p.orient.memories} memories in ${p.orient.namespaces} namespaces, ${p.orient.sessions} sessions since ${p.orient.lastDream ?? 'the beginning'}`,
    `gather:      ${p.gather.reinforced} reinforced, ${p.gather.proposed} topics proposed`,
    `consolidate: ${p.consolidate.merged} merged, ${p.consolidate.superseded} superseded, ${p.consolidate.secretsMasked} secrets masked${p.consolidate.modelBatches ? `, ${p.consolidate.modelBatches} model batches` : ''}`,
    `prune:       ${p.prune.archived} archived`,
  ];
  if (p.verify)
    lines.push(
      `verify:      ${p.verify.checked} checked against their repositories, ${p.verify.reverify} to re-verify, ${p.verify.archived} archived${p.verify.confirmed ? `, ${p.verify.confirmed} confirmed by the model` : ''}`,
    );
  if (r.tokens) lines.push(`tokens:      ${r.tokens.input} input + ${r.tokens.output} output (budget ${r.tokens.budget})`);
  for (const m of r.merges) lines.push(`  merge      ${m.merged.join(', ')} → ${m.into}: ${m.text.slice(0, 80)}`);
  for (const s of r.supersessions) lines.push(`  supersede  ${s.id} by ${s.by}: ${s.reason.slice(0, 90)}`);
  for (const a of r.archives) lines.push(`  archive    ${a.id}: ${a.reason}`);
  for (const v of r.reverify ?? []) lines.push(`  re-verify  ${v.id}: ${v.reason}`);
  for (const t of r.proposals) lines.push(`  proposal   "${t.topic}" came up in ${t.sessions} sessions with no memory about it`);
  for (const x of r.replacements ?? [])
    lines.push(`  replace?   ${x.newer} may replace ${x.older} (${x.reason}): \`nightshift memories forget ${x.older}\` to agree`);
  return `${lines.join('\n')}\n`;
}

export function registerDreamCommands(program: Command): void {
  const dream = program
    .command('dream')
    .description('consolidate memories now: merge duplicates, resolve contradictions, decay and prune (ignores the schedule’s gates)')
    .option('--dry-run', 'report what would change and change nothing')
    .option('--json', 'print the report as JSON')
    // `dream log --json`: options after a subcommand are the subcommand's.
    .enablePositionalOptions()
    .addHelpText(
      'after',
      '\nNothing a dream does is irreversible: merged, superseded and archived memories are kept\n(`nightshift memories list --archived`) and `nightshift memories restore ID` brings one back.',
    )
    .action(async (o: { dryRun?: boolean; json?: boolean }) => {
      const tty = process.stdout.isTTY && !o.json;
      const report = await withDaemon((c) =>
        tty ? c.dreamWithProgress(Boolean(o.dryRun), (phase, detail) => process.stderr.write(`  ${phase.padEnd(12)} ${detail}\n`)) : c.dream(Boolean(o.dryRun)),
      );
      if (o.json) printJson(report);
      else process.stdout.write(describeReport(report));
    });
  dream
    .command('log')
    .description('past dreams, newest first')
    .option('--json', 'print JSON')
    .action(async (o: { json?: boolean }) => {
      const { dreams: list, running } = await withDaemon((c) => c.dreamLog());
      // The running dream first, marked `running: true`, with the phases it has done so far.
      if (o.json) return printJson(running ? [{ ...running, running: true }, ...list] : list);
      if (list.length === 0 && !running) {
        process.stdout.write('no dreams yet\n');
        return;
      }
      const rows = list.map((d) => [
        d.id,
        d.trigger + (d.dryRun ? ' (dry)' : ''),
        ago(d.startedAt),
        `${d.durationMs}ms`,
        String(d.merged),
        String(d.superseded),
        String(d.archived),
      ]);
      if (running)
        rows.unshift([
          running.id,
          running.trigger + (running.dryRun ? ' (dry)' : ''),
          ago(running.startedAt),
          `running (${running.phases.at(-1)?.phase ?? 'starting'})`,
          '-',
          '-',
          '-',
        ]);
      await loadWidths();
      process.stdout.write(`${table(['ID', 'TRIGGER', 'AGO', 'TOOK', 'MERGED', 'SUPERSEDED', 'ARCHIVED'], rows)}\n`);
    });
  dream
    .command('show')
    .description('one dream’s report: counts per phase and every merge, supersession and archive with the reason; a dream still running is followed to its end')
    .argument('<id>')
    .option('--expand', 'with the text now of every memory it names (JSON: `{report, memories}`)')
    .option('--json', 'print JSON')
    .action(async (id: string, o: { json?: boolean; expand?: boolean }) => {
      let said = false;
      const r = await withDaemon((c) =>
        c.followDream(id, (phase, detail) => {
          if (!said) process.stderr.write(`dream ${id} is running; following it (Ctrl-C stops following, not the dream)\n`);
          said = true;
          process.stderr.write(`  ${phase.padEnd(12)} ${detail}\n`);
        }),
      );
      if (!o.expand) {
        if (o.json) printJson(r);
        else process.stdout.write(describeReport(r));
        return;
      }
      const x = await withDaemon((c) => c.call('getDream', { params: { id }, query: { expand: '1' } }));
      if (o.json) printJson(x);
      else process.stdout.write(describeReport(x.report) + describeMemories(x.memories ?? {}));
    });
}

function describeMemories(memories: Record<string, ReportMemory>): string {
  const lines = Object.entries(memories).map(([id, m]) =>
    m.exists ? `  ${id} [${m.state}] ${escapeControls(m.content.slice(0, 100))}` : `  ${id} (no longer stored)`,
  );
  return lines.length === 0 ? '' : `memories now:\n${lines.join('\n')}\n`;
}
