/**
 * Who said it and what was taken back, through the CLI against a real daemon, on sessions written
 * for the test in several wordings: Claude Code's compaction text, pasted agent output, answers
 * and unrelated replies, corrections and slips, restatements, rules in other languages, and
 * promotion to user scope of only what the person typed. The stored set also depends on the
 * ranker's score, so the statements are clear rules and facts, and the checks are on presence or
 * absence.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Memory } from '../../src/api/memory.js';
import { daemonsPerTest, tempDirsPerTest } from '../helpers/daemon.js';
import { ago, has, ingest, memories, project, recall } from '../helpers/memory-cli.js';
import { ClaudeSession } from '../helpers/session-lines.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-cand-cli-');

const BOILERPLATE =
  /being continued|summari[sz]ed below|continue the conversation|last task|left (?:it )?off|further questions|full transcript|acknowledge the summary|resume directly|break never happened/i;

const contents = (ms: readonly Memory[]): string => ms.map((m) => m.content).join('\n');

/** A daemon of its own that ingested one short session: the rule, the agent's "OK.", then `after`. */
async function saidOnce(rule: string, after?: string) {
  const d = newDaemon();
  await d.start();
  const dir = tmp();
  const app = project(dir, 'app');
  const s = new ClaudeSession({ sessionId: 'i18n', cwd: app, start: ago(2) }).user(rule).assistant('OK.');
  if (after !== undefined) s.user(after);
  await ingest(d, s, dir, 'i18n');
  return { d, app };
}

describe('candidate classes through the CLI', () => {
  it("Claude Code's compaction and continuation text is never stored nor recalled, in any of its wordings", async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const ledger = project(dir, 'ledger');
    const shop = project(dir, 'shop');
    const flagged = new ClaudeSession({ sessionId: 'cc-1', cwd: ledger, start: ago(3) })
      .user('Invoice numbers are sequential per fiscal year, never global. Always run the migrations with `sqlx migrate run`, never by hand.')
      .assistant('Understood, numbering per fiscal year.')
      .compactSummary(
        'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n1. Primary Request and Intent:\n   - Invoice numbers sequential per fiscal year\n7. Next Step:\n   - Please continue the conversation from where we left it off without asking the user any further questions. Continue with the last task that you were asked to work on.\n\nIf you need specific details from before compaction (like exact code snippets), read the full transcript at: /home/ana/.claude/projects/ledger/cc-1.jsonl',
      )
      .assistant('Numbering is in place.');
    const oldStyle = new ClaudeSession({ sessionId: 'cc-2', cwd: shop, start: ago(2) })
      .user('The storefront talks to Stripe only through the payments service, never directly.')
      .assistant('Noted.')
      .user(
        'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nSummary:\n1. Primary Request and Intent:\n   - Route Stripe calls through the payments service',
      )
      .user(
        'Continue the conversation from where it left off without asking the user any further questions. Resume directly — do not acknowledge the summary, do not recap what was happening. Pick up the last task as if the break never happened.',
      )
      .assistant('Wiring the checkout to the payments service.');
    await ingest(d, flagged, dir, 'cc-1');
    await ingest(d, oldStyle, dir, 'cc-2');
    for (const p of [ledger, shop]) {
      expect(contents(await memories(d, p))).not.toMatch(BOILERPLATE);
      expect((await recall(d, p)).items.map((i) => i.text).join('\n')).not.toMatch(BOILERPLATE);
    }
    expect(has(await memories(d, shop), /payments service/).length).toBeGreaterThan(0);
  });

  it("the agent's words pasted back are not stored as the person's", async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const notes = project(dir, 'notes');
    const infra = project(dir, 'infra');
    const a = new ClaudeSession({ sessionId: 'paste-1', cwd: notes, start: ago(3) })
      .user('Notes app on SvelteKit with Drizzle; always use pnpm, never npm.')
      .assistant('I stubbed the search endpoint to return an empty list because FTS is not wired yet.')
      .user(
        'you wrote this earlier:\n\n> I stubbed the search endpoint to return an empty list because FTS is not wired yet.\n\nFTS is wired already, remove the stub.',
      )
      .assistant('Removed the stub.');
    const b = new ClaudeSession({ sessionId: 'paste-2', cwd: infra, start: ago(2) })
      .user('Terraform state lives in Terraform Cloud, one workspace per environment.')
      .user(
        'terraform says:\n\nError: Unsupported argument on modules/rds/main.tf line 12: An argument named "iops_burst" is not expected here.\n\nAlways pin provider versions in versions.tf.',
      )
      .assistant('Removed the argument and pinned the providers.');
    await ingest(d, a, dir, 'paste-1');
    await ingest(d, b, dir, 'paste-2');
    expect(contents(await memories(d, notes))).not.toMatch(/empty list because FTS/);
    expect(contents(await memories(d, infra))).not.toMatch(/iops_burst|Unsupported argument/);
  });

  it('a reply on another topic is not stored as the answer to the question before it', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const crm = project(dir, 'crm');
    const s = new ClaudeSession({ sessionId: 'ans-1', cwd: crm, start: ago(2) })
      .user('Add a CSV export of the customer list.')
      .assistant('Should the CSV include archived customers, or only active ones?')
      .user('other thing: staging deploys to Fly.io from the main branch only')
      .assistant('Updated bin/deploy for Fly.io.');
    await ingest(d, s, dir, 'ans-1');
    const all = await memories(d, crm);
    expect(all.some((m) => /archived/.test(m.content) && /Fly\.io/.test(m.content))).toBe(false);
  });

  it('a suggestion argued against and let go, and a task agreed to and done, are not stored; the rule beside them is', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const tides = project(dir, 'tides');
    const s = new ClaudeSession({ sessionId: 'let-go-1', cwd: tides, start: ago(2) })
      .user('Tide heights are stored in centimetres, never in metres.')
      .assistant(
        'Understood. The README still says "tidetool" in four places. Would you like me to update it to:\n1. Replace "tidetool" with "harbourtides"\n2. Reword the intro',
      )
      .user('yes, we need a full search and replace of the old name')
      .toolUse('e1', 'Edit', { file_path: `${tides}/README.md`, old_string: 'tidetool', new_string: 'harbourtides' })
      .toolResult('e1', 'The file has been updated successfully.')
      .assistant('The search and replace of the old name is complete.')
      .user('maybe the station averages should be cast to float before rounding')
      .toolUse('c1', 'Bash', { command: 'ruby -e "p 1"' })
      .toolResult('c1', '1')
      .assistant("I'd leave them as BigDecimal: the averages are exact and round once at the end.")
      .user('ok, on to the print view')
      .assistant('On it.');
    await ingest(d, s, dir, 'let-go-1');
    const all = contents(await memories(d, tides));
    expect(all).toMatch(/centimetres/);
    expect(all).not.toMatch(/search and replace/);
    expect(all).not.toMatch(/cast to float/);
  });

  it.each([
    ['a slip a message later', ['The orders database listens on port 5432.', 'sorry, I meant port 5433 — the orders database listens on 5433.'], /5432/],
    [
      'a decision reversed with "after all"',
      ['Split the Flask app into one blueprint file per resource.', 'actually, keep the single-file Flask app after all, no blueprint files.'],
      /one blueprint file per resource/,
    ],
    [
      'German: testing-eu, not testing',
      ['Spiel das neue Release erst mal auf testing aus.', 'nein warte, nimm testing-eu, nicht testing.'],
      /^Spiel das neue Release/,
    ],
  ])('%s: only the final version is stored', async (_, said, gone) => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const svc = project(dir, 'svc');
    const s = new ClaudeSession({ sessionId: 'slip-1', cwd: svc, start: ago(2) });
    for (const t of said) s.user(t).assistant('OK.');
    await ingest(d, s, dir, 'slip-1');
    expect(has(await memories(d, svc), gone)).toEqual([]);
  });

  it('a rule said in two projects only inside compaction summaries is not promoted to user scope', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const rule = 'Always run the linter before committing, and fix the warnings rather than silencing them.';
    for (const [i, name] of ['alpha', 'beta'].entries()) {
      const cwd = project(dir, name);
      const s = new ClaudeSession({ sessionId: `sum-${i}`, cwd, start: ago(3 - i) })
        .user(`Add request logging to the ${name} API.`)
        .compactSummary(
          `This session is being continued from a previous conversation.\n\nSummary:\n1. Primary Request and Intent:\n   - ${rule}\n   - Request logging for the ${name} API`,
        )
        .assistant('Logging added.');
      await ingest(d, s, dir, `sum-${i}`);
    }
    const elsewhere = project(dir, 'gamma');
    // Stored in each project from its summary, where the person never typed it: not how they work everywhere.
    for (const name of ['alpha', 'beta']) {
      const there = has(await memories(d, project(dir, name)), /linter/);
      expect(there.map((m) => [m.scope, m.sources.map((x) => x.said)])).toEqual([['project', ['summary-request']]]);
    }
    expect(has(await memories(d, elsewhere), /linter/).filter((m) => m.scope === 'user')).toEqual([]);
  });

  it.each([
    "Quand tu ajoutes une route à l'API, écris toujours le test d'intégration dans tests/api avant le code — même pour une petite route, parce que la CI refuse les routes sans test et que personne ne veut corriger ça après coup.",
    'Los logs del servicio siempre en formato JSON, nunca en texto plano, porque los procesa Loki y los necesita estructurados.',
    // German "im" is a word of its own, never the chat spelling of "I'm".
    'Neue Migrationen immer im Ordner db/migrate anlegen, nie im Ordner src, weil der Deploy nur db/migrate liest.',
    '今後、Pythonの依存関係は必ずuvで追加してください。pipで直接入れないでください。',
  ])('a rule in another language is stored whole, never as a fragment: %s', async (rule) => {
    const { d, app } = await saidOnce(rule, 'merci / gracias / ありがとう');
    const bare = (x: string): string => x.replace(/[.。]+$/, '');
    const stored = (await memories(d, app)).map((m) => bare(m.content));
    // Whatever is stored of the rule is one of its whole sentences, never a clause of one.
    const sentences = rule
      .split(/(?<=\.)\s+|(?<=。)/)
      .filter((x) => x !== '')
      .map(bare);
    const ofRule = stored.filter((c) => sentences.some((x) => x.includes(c.slice(0, 12))));
    expect(ofRule.length).toBeGreaterThan(0);
    expect(
      ofRule.every((c) => sentences.includes(c)),
      ofRule.join('\n'),
    ).toBe(true);
  });

  it.each([
    'Grundsätzlich gilt: wenn eine Migration eine Spalte löscht, kommt sie in einen eigenen Pull Request.',
    'Par défaut, les nouvelles tâches Celery passent par la file lente, pas par la file rapide.',
    '原則として、新しいAPIはすべてv2の名前空間に置いてください。',
  ])('a rule said "as a rule" or "by default" in another language, with no "always", is a standing rule: %s', async (rule) => {
    const { d, app } = await saidOnce(rule);
    const stored = has(await memories(d, app), /Migration|Celery|v2/);
    expect(stored.map((m) => [m.type, m.content])).toEqual([['instruction', rule]]);
  });
});
