import { resolveDir } from '../project.js';
import type { Command } from 'commander';
import { AppError } from '../errors.js';
import { escapeControls, renderRecall, type RecallFormat } from '../api/recall-render.js';
import { withDaemon } from '../client/connect.js';
import { clipColumns, loadWidths, table } from './format.js';
import { printJson } from './print-json.js';
import { nonNegInt } from './tasks.js';

const FORMATS = ['text', 'markdown', 'claude-hook'] as const;

function format(v: string): RecallFormat {
  if (!(FORMATS as readonly string[]).includes(v)) throw new AppError('bad_request', `--format must be one of ${FORMATS.join(', ')}; got "${v}"`);
  return v as RecallFormat;
}

export function registerRecallCommands(program: Command): void {
  program
    .command('recall')
    .description('the memories that matter for a project, ranked and cut to a token budget')
    .option('--project <dir>', 'project directory, relative to the current one (default: the current one)')
    .option('--team <name>', 'include a team’s memories')
    .option('--query <text>', 'rank what matches this text first (and add matching excerpts of past sessions)')
    .option('--budget <tokens>', 'token budget of the block (default 2,000)', nonNegInt('--budget'))
    .option('--no-episodes', 'memories only, never excerpts of past sessions')
    .option('--format <format>', 'text, markdown or claude-hook (default text)', format, 'text' as RecallFormat)
    .option('--json', 'print the ranked items as JSON')
    .addHelpText(
      'after',
      '\nRecall never resets decay: only a fact reappearing in a session does.\n\nExamples:\n  nightshift recall --format markdown\n  nightshift recall --query "database migrations" --budget 500',
    )
    .action(async (o: { project?: string; team?: string; query?: string; budget?: number; episodes: boolean; format: RecallFormat; json?: boolean }) => {
      const r = await withDaemon((c) =>
        c.recall({
          project: resolveDir(o.project ?? '.'),
          ...(o.team && { team: o.team }),
          ...(o.query && { query: o.query }),
          ...(o.budget !== undefined && { budget: o.budget }),
          episodes: o.episodes,
        }),
      );
      if (o.json) return printJson(r);
      const out = renderRecall(r, o.format);
      if (out) process.stdout.write(`${out}\n`);
    });

  program
    .command('search')
    .description('search what was said and done in past sessions ("what did we do about X")')
    .argument('<query...>')
    .option('--project <dir>', 'only sessions of this project (a directory, relative to the current one)')
    .option('--limit <n>', 'at most this many hits (default 10)', nonNegInt('--limit'))
    .option('--json', 'print JSON')
    .action(async (query: string[], o: { project?: string; limit?: number; json?: boolean }) => {
      const hits = await withDaemon((c) =>
        c.search({ q: query.join(' '), ...(o.project && { project: resolveDir(o.project) }), ...(o.limit !== undefined && { limit: o.limit }) }),
      );
      if (o.json) return printJson(hits);
      if (hits.length === 0) {
        process.stdout.write('no matches\n');
        return;
      }
      await loadWidths();
      const rows = hits.map((h) => [
        (h.at ?? '').slice(0, 16).replace('T', ' ') || '-',
        h.sessionId.slice(0, 12),
        escapeControls(h.speaker ?? h.role),
        clipColumns(escapeControls(h.text.replace(/\s+/g, ' ')), 100),
      ]);
      process.stdout.write(`${table(['WHEN', 'SESSION', 'WHO', 'TEXT'], rows)}\n`);
    });
}
