/**
 * Memory over many sessions. Sequences of small sessions of one project, written for the
 * test and ingested in order, then a dream, through the CLI against a real daemon: a tool replaced,
 * a rule restated in other words, a bug fixed, a plan dropped, a project left idle against one that
 * went on without a memory, and the order recall gives things in.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DreamReport } from '../../src/api/dream.js';
import type { Memory, RecallResponse } from '../../src/api/memory.js';
import { daemonsPerTest, tempDirsPerTest, type TestDaemon } from '../helpers/daemon.js';
import { ago, DAY, dream, has, ingest, memories, project, recall, recalled } from '../helpers/memory-cli.js';
import { ClaudeSession } from '../helpers/session-lines.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-many-');

interface Task {
  ask: string;
  reply: string;
  file: string;
  from: string;
  to: string;
}

/** One-off tasks of a web shop, one per session: what most sessions are about. */
const TASKS: Task[] = [
  {
    ask: 'The product page shows the old price after a discount is removed, can you fix it?',
    reply: 'The price component caches the discounted price in state. I will derive it from the props instead.',
    file: 'src/components/Price.tsx',
    from: 'useState(discounted)',
    to: 'useMemo(() => priceOf(product), [product])',
  },
  {
    ask: 'Add a loading spinner to the checkout button while the payment is processed.',
    reply: 'I will add a pending state to the checkout button and show the spinner while the payment request runs.',
    file: 'src/components/CheckoutButton.tsx',
    from: '<button onClick={pay}>',
    to: '<button onClick={pay} disabled={pending}>{pending && <Spinner />}',
  },
  {
    ask: 'The search box should ignore leading and trailing spaces.',
    reply: 'I will trim the query before it is sent to the search endpoint.',
    file: 'src/search/query.ts',
    from: 'q: input',
    to: 'q: input.trim()',
  },
  {
    ask: 'Rename the "Basket" label to "Cart" everywhere in the UI.',
    reply: 'I will replace the label in the translations file; the component keys stay the same.',
    file: 'src/i18n/en.json',
    from: '"basket": "Basket"',
    to: '"basket": "Cart"',
  },
  {
    ask: 'Make the footer links open in the same tab.',
    reply: 'I will remove target="_blank" from the footer links.',
    file: 'src/components/Footer.tsx',
    from: 'target="_blank"',
    to: '',
  },
  {
    ask: 'The order confirmation email has the wrong year in the footer.',
    reply: 'The template hard-codes 2024. I will use the current year from the render context.',
    file: 'emails/order-confirmation.mjml',
    from: '© 2024',
    to: '© {{year}}',
  },
  {
    ask: 'Add an index on orders.customer_id, the account page is slow.',
    reply: 'I will add a migration that creates the index concurrently.',
    file: 'db/migrations/0042_orders_customer_idx.sql',
    from: '',
    to: 'create index concurrently orders_customer_idx on orders (customer_id);',
  },
  {
    ask: 'Show the number of items next to the cart icon.',
    reply: 'I will read the item count from the cart store and render a badge on the icon.',
    file: 'src/components/CartIcon.tsx',
    from: '<Icon name="cart" />',
    to: '<Icon name="cart" /><Badge count={count} />',
  },
  {
    ask: 'The newsletter form accepts emails without a domain, please validate it.',
    reply: 'I will use the shared email validator in the newsletter form.',
    file: 'src/components/Newsletter.tsx',
    from: 'required',
    to: 'required pattern={EMAIL_PATTERN}',
  },
  {
    ask: 'Bump the image CDN timeout to ten seconds.',
    reply: 'I will raise the timeout in the CDN client options.',
    file: 'src/lib/cdn.ts',
    from: 'timeout: 5000',
    to: 'timeout: 10000',
  },
  {
    ask: 'Sort the categories menu alphabetically.',
    reply: 'I will sort the categories by name before rendering the menu.',
    file: 'src/components/CategoryMenu.tsx',
    from: 'categories.map(',
    to: 'sortByName(categories).map(',
  },
  {
    ask: 'Log the payment provider response code when a charge fails.',
    reply: 'I will add the provider code to the error log of the charge handler.',
    file: 'src/payments/charge.ts',
    from: "log.error('charge failed')",
    to: "log.error({ code: res.code }, 'charge failed')",
  },
  {
    ask: 'Hide the reviews section when a product has no reviews.',
    reply: 'I will render the reviews section only when the list is not empty.',
    file: 'src/components/Reviews.tsx',
    from: 'return (',
    to: 'if (reviews.length === 0) return null;\n  return (',
  },
  {
    ask: 'The 404 page should link back to the home page.',
    reply: 'I will add a link to the home page under the message.',
    file: 'src/pages/404.tsx',
    from: '<p>Page not found</p>',
    to: '<p>Page not found</p><Link href="/">Back to the shop</Link>',
  },
  {
    ask: 'Round the shipping estimate to whole days.',
    reply: 'I will round the estimate up to whole days before formatting it.',
    file: 'src/shipping/estimate.ts',
    from: 'hours / 24',
    to: 'Math.ceil(hours / 24)',
  },
  {
    ask: 'Add alt text to the product thumbnails.',
    reply: 'I will use the product name as alt text for the thumbnails.',
    file: 'src/components/Thumbnail.tsx',
    from: '<img src={src} />',
    to: '<img src={src} alt={name} />',
  },
];

/** A small session of the shop: a one-off task, the agent's edit, what the person says besides, the tests, a commit. */
function shopSession(id: string, cwd: string, start: string, task: Task, statements: string[] = []): ClaudeSession {
  const s = new ClaudeSession({ sessionId: id, cwd, start })
    .user(task.ask)
    .assistant(task.reply)
    .toolUse(`${id}-e1`, 'Edit', { file_path: `${cwd}/${task.file}`, old_string: task.from, new_string: task.to })
    .toolResult(`${id}-e1`, 'The file has been updated successfully.');
  for (const t of statements) s.user(t).assistant('Noted.');
  return s
    .toolUse(`${id}-b1`, 'Bash', { command: 'npm test' })
    .toolResult(`${id}-b1`, 'Tests: 64 passed, 64 total')
    .user('ok, commit it')
    .toolUse(`${id}-b2`, 'Bash', { command: `git commit -am "${task.ask.slice(0, 40)}"` })
    .toolResult(`${id}-b2`, `[main 1a2b3c4] ${task.ask.slice(0, 40)}\n 1 file changed`);
}

/** Session `i` of a sequence: task `i` of the list, `days` days ago. */
const nth = (i: number, id: string, cwd: string, days: number, statements: string[] = []): ClaudeSession =>
  shopSession(id, cwd, ago(days), TASKS[i % TASKS.length] as Task, statements);

describe('sequences of sessions', () => {
  describe('a replaced tool', () => {
    it('Jest, then "we moved the tests to vitest": recall shows Vitest, Jest is archived and linked to it', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const shop = project(dir, 'shop');
      await ingest(d, nth(0, 'tool-1', shop, 20, ['The unit tests always run with Jest.']), dir, 'tool-1');
      await ingest(d, nth(1, 'tool-2', shop, 12), dir, 'tool-2');
      await ingest(d, nth(2, 'tool-3', shop, 5, ['we moved the tests to vitest']), dir, 'tool-3');
      await dream(d);
      const vitest = has(await memories(d, shop), /vitest/i);
      expect(vitest).toHaveLength(1);
      const jest = has(await memories(d, shop, true), /Jest/);
      expect(jest.map((m) => m.supersededBy)).toEqual([vitest[0]?.id]);
      const r = await recall(d, shop);
      expect(recalled(r, /vitest/i)).toBe(true);
      expect(recalled(r, /Jest/)).toBe(false);
    });

    // A replaced tool said in three words: "we use jest".
    it('"we use jest", then "we moved the tests to vitest": Jest is archived and linked to Vitest', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const shop = project(dir, 'shop');
      await ingest(d, nth(0, 'tool-4', shop, 20, ['we use jest']), dir, 'tool-4');
      await ingest(d, nth(2, 'tool-5', shop, 5, ['we moved the tests to vitest']), dir, 'tool-5');
      await dream(d);
      expect(has(await memories(d, shop, true), /jest/).map((m) => m.supersededBy !== undefined)).toEqual([true]);
    });
  });

  describe('a rule restated in three sessions', () => {
    const RESTATED = ['run the linter before each commit', 'always lint before committing', 'before you commit, run the linter'];

    it('becomes one active memory with the three sessions among its sources, ranked above a comparable rule said once', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const shop = project(dir, 'shop');
      await ingest(
        d,
        nth(0, 'lint-1', shop, 30, ['Always run the linter before you commit, and fix what it reports instead of disabling the rule.']),
        dir,
        'lint-1',
      );
      await ingest(d, nth(1, 'once-1', shop, 24, ['Always write a down migration too, and run it locally before you open the PR.']), dir, 'once-1');
      await ingest(
        d,
        nth(2, 'lint-2', shop, 16, ['Before committing, always run the linter and fix what it reports instead of disabling the rule.']),
        dir,
        'lint-2',
      );
      await ingest(d, nth(3, 'lint-3', shop, 8, ['Run the linter before every commit and fix what it reports rather than disabling the rule.']), dir, 'lint-3');
      await dream(d);
      const lint = has(await memories(d, shop), /linter/);
      expect(lint).toHaveLength(1);
      expect(new Set(lint[0]?.sources.map((s) => s.sessionId))).toEqual(new Set(['lint-1', 'lint-2', 'lint-3']));
      const items = (await recall(d, shop)).items.map((i) => i.text);
      const linter = items.findIndex((t) => /linter/.test(t));
      const migration = items.findIndex((t) => /down migration/.test(t));
      expect(linter).toBeGreaterThanOrEqual(0);
      expect(migration).toBeGreaterThan(linter);
    });

    // A rule restated: another rule of the same shape ("… and fix what it reports instead of …") is not a restatement of it.
    it('is not reinforced by a different rule said in the same words around it', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const shop = project(dir, 'shop');
      await ingest(
        d,
        nth(0, 'lint-8', shop, 30, ['Always run the linter before you commit, and fix what it reports instead of disabling the rule.']),
        dir,
        'lint-8',
      );
      await ingest(
        d,
        nth(1, 'tsc-1', shop, 20, ['Always run the type checker before you push, and fix what it reports instead of adding ts-ignore.']),
        dir,
        'tsc-1',
      );
      await dream(d);
      const [lint] = has(await memories(d, shop), /linter/);
      expect(lint?.sources.map((s) => s.sessionId)).toEqual(['lint-8']);
    });

    // A rule restated: the three wordings are each left below the ranker's floor, so there is no memory to merge or reinforce.
    it(`"${RESTATED.join('" / "')}" in three sessions: one active memory said in the three`, async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const shop = project(dir, 'shop');
      for (const [i, rule] of RESTATED.entries()) await ingest(d, nth(i, `lint-${i + 5}`, shop, 30 - 10 * i, [rule]), dir, `lint-${i + 5}`);
      await dream(d);
      const lint = has(await memories(d, shop), /lint/);
      expect(lint).toHaveLength(1);
      expect(lint[0]?.sources.map((s) => s.sessionId).sort()).toEqual(['lint-5', 'lint-6', 'lint-7']);
    });
  });

  describe('a fixed bug', () => {
    it('"the export button is broken on Safari", then "the Safari export bug is fixed now": not recalled after the dream', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const shop = project(dir, 'shop');
      await ingest(d, nth(0, 'bug-1', shop, 10, ['the export button is broken on Safari']), dir, 'bug-1');
      // The report itself is left below the ranker's floor: nothing is stored, so nothing stale can be recalled.
      await ingest(d, nth(1, 'bug-2', shop, 3, ['the Safari export bug is fixed now']), dir, 'bug-2');
      await dream(d);
      expect(recalled(await recall(d, shop), /broken on Safari/)).toBe(false);
    });

    // A fixed bug: the report is stored as an instruction (its "never" reads as a rule), and the dream
    // archives only fact-typed problems, with 60% of their words in the later message.
    it('a stored bug report is archived as "fixed …" once a later session says the bug is fixed', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const shop = project(dir, 'shop');
      await ingest(d, nth(0, 'bug-3', shop, 10, ['FYI the export button is broken on Safari: the CSV download never starts there.']), dir, 'bug-3');
      const bug = has(await memories(d, shop), /broken on Safari/);
      expect(bug).toHaveLength(1);
      await ingest(d, nth(1, 'bug-4', shop, 3, ['the Safari export bug is fixed now']), dir, 'bug-4');
      const report = await dream(d);
      expect(report.archives).toContainEqual({ id: bug[0]?.id, reason: expect.stringMatching(/^fixed/) });
      expect(recalled(await recall(d, shop), /broken on Safari/)).toBe(false);
    });
  });

  describe('a plan dropped', () => {
    const PLAN = [
      '# Plan: migrate billing to Stripe Connect',
      '',
      '1. Create connected accounts for the three marketplace sellers.',
      '2. Route the payouts through Stripe Connect transfers instead of manual bank transfers.',
      '3. Move the billing webhooks to the Connect endpoint.',
      '',
    ].join('\n');
    /** s1 approves the plan (the work is to start later); s2, another task, drops it in passing. */
    async function approvedThenDropped(d: TestDaemon, dir: string, shop: string, id: string): Promise<{ planned: Memory[]; report: DreamReport }> {
      const s1 = new ClaudeSession({ sessionId: `${id}-1`, cwd: shop, start: ago(14) })
        .user('The sellers want their payouts automated. Plan how we would do that with Stripe.')
        .toolUse('r1', 'Read', { file_path: `${shop}/src/payments/payouts.ts` })
        .toolResult('r1', 'export async function payout(seller: Seller) {\n  // manual bank transfer, see ops/payouts.md\n}')
        .toolUse('p1', 'ExitPlanMode', { plan: PLAN })
        .toolResult('p1', 'User has approved your plan. You can now start coding.')
        .assistant('I will start with the connected accounts tomorrow; the plan is in the notes.')
        .user('sounds good');
      await ingest(d, s1, dir, `${id}-1`);
      const planned = has(await memories(d, shop), /^Approved plan: migrate billing to Stripe Connect/);
      expect(planned).toHaveLength(1);
      expect(recalled(await recall(d, shop), /Stripe Connect/)).toBe(true);
      await ingest(d, nth(4, `${id}-2`, shop, 6, ["let's drop the Stripe Connect migration plan, we're not going to do it"]), dir, `${id}-2`);
      return { planned, report: await dream(d) };
    }

    it('the approved plan is archived as "dropped …" and no longer recalled', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const shop = project(dir, 'shop');
      const { planned, report } = await approvedThenDropped(d, dir, shop, 'plan');
      expect(report.archives).toContainEqual({ id: planned[0]?.id, reason: expect.stringMatching(/^dropped/) });
      expect(has(await memories(d, shop, true), /^Approved plan/).map((m) => m.id)).toEqual([planned[0]?.id]);
      expect(recalled(await recall(d, shop), /Approved plan/)).toBe(false);
    });

    // A plan dropped: the statements stored from its body leave with it.
    it('nothing of the dropped plan is recalled, its steps included', async () => {
      const d = newDaemon();
      await d.start();
      const dir = tmp();
      const shop = project(dir, 'shop');
      await approvedThenDropped(d, dir, shop, 'steps');
      // The decision that dropped it may stand, as a decision; nothing of the plan itself.
      const left = (await recall(d, shop)).items.filter((i) => /Stripe Connect|connected accounts|Connect endpoint/.test(i.text));
      expect(left.filter((i) => !(i.type === 'decision' && /\bdrop\b/i.test(i.text))).map((i) => i.text)).toEqual([]);
    });
  });

  it('a project left alone for six months keeps a memory that decays; one that had 15 sessions without it lets it go', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const idle = project(dir, 'idle');
    const busy = project(dir, 'busy');
    // Bound to the moment ("until … is fixed"): these decay. (Each project its own: one rule said in two projects would be promoted to the user's.)
    await ingest(d, nth(0, 'idle-1', idle, 70, ['Until the staging API is fixed, always skip the e2e tests when you run the suite.']), dir, 'idle-1');
    await ingest(d, nth(0, 'busy-1', busy, 70, ['Until the payment sandbox is fixed, always skip the checkout tests when you run the suite.']), dir, 'busy-1');
    expect(has(await memories(d, idle), /skip the e2e tests/).map((m) => m.stable)).toEqual([false]);
    expect(has(await memories(d, busy), /skip the checkout tests/).map((m) => m.stable)).toEqual([false]);
    // The busy project goes on for 15 sessions over two months, none of them about the e2e tests.
    for (let i = 1; i <= 15; i++) await ingest(d, nth(i, `busy-${i + 1}`, busy, 70 - 4 * i), dir, `busy-${i + 1}`);
    // Six months later.
    await d.stop();
    d.env.NIGHTSHIFT_CLOCK_OFFSET_MS = String(180 * DAY);
    await d.start();
    const report = await dream(d);
    const [idleSkip] = has(await memories(d, idle), /skip the e2e tests/);
    expect(idleSkip).toBeDefined();
    expect(report.archives.map((a) => a.id)).not.toContain(idleSkip?.id);
    expect(recalled(await recall(d, idle), /skip the e2e tests/)).toBe(true);
    expect(has(await memories(d, busy), /skip the checkout tests/)).toEqual([]);
    expect(has(await memories(d, busy, true), /skip the checkout tests/)).toHaveLength(1);
    expect(recalled(await recall(d, busy), /skip the checkout tests/)).toBe(false);
  });

  // Not in the list; seen in the sequences above: the one-off task that opens a session is kept as a stable instruction, session after session.
  it('the one-off tasks sessions open with do not pile up as standing rules', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const shop = project(dir, 'shop');
    const tasks = [1, 3, 9, 14];
    for (const [k, i] of tasks.entries()) await ingest(d, nth(i, `task-${k}`, shop, 20 - 5 * k), dir, `task-${k}`);
    const asks = tasks.map((i) => (TASKS[i] as Task).ask);
    expect((await memories(d, shop)).filter((m) => asks.includes(m.content)).map((m) => m.content)).toEqual([]);
  });

  it('recall gives standing rules first, then the state of the project, then the recent sessions', async () => {
    const d = newDaemon();
    await d.start();
    const dir = tmp();
    const shop = project(dir, 'shop');
    await ingest(d, nth(0, 'order-1', shop, 9, ['The shop runs on Next.js 14 with Prisma and Postgres 16, deployed on Vercel.']), dir, 'order-1');
    await ingest(
      d,
      nth(1, 'order-2', shop, 5, ['Always run the type checker before you push, and fix what it reports instead of adding ts-ignore.']),
      dir,
      'order-2',
    );
    await ingest(d, nth(2, 'order-3', shop, 2), dir, 'order-3');
    const r = await recall(d, shop);
    const section = (i: RecallResponse['items'][number]): number =>
      i.kind === 'digest' ? 2 : i.kind === 'memory' && (i.type === 'instruction' || i.type === 'preference') ? 0 : 1;
    const sections = r.items.map(section);
    expect(sections).toEqual([...sections].sort((a, b) => a - b));
    const rule = r.items.findIndex((i) => /type checker/.test(i.text));
    const stack = r.items.findIndex((i) => /Next\.js 14/.test(i.text));
    const digest = r.items.findIndex((i) => i.kind === 'digest');
    expect(rule).toBeGreaterThanOrEqual(0);
    expect(stack).toBeGreaterThan(rule);
    expect(digest).toBeGreaterThan(stack);
    const md = await d.cli(['recall', '--project', shop, '--format', 'markdown']);
    expect(md.code, md.stderr).toBe(0);
    const headings = md.stdout.split('\n').filter((l) => l.startsWith('## '));
    // The sessions committed: the agent's record of them has its own section before the digests.
    expect(headings).toEqual(['## Standing rules', `## Facts about ${shop}`, "## Current state (the agent's record)", '## Recent sessions here']);
    const under = (heading: string): string => md.stdout.split(`${heading}\n`)[1]?.split('\n## ')[0] ?? '';
    expect(under('## Standing rules')).toContain('type checker');
    expect(under(`## Facts about ${shop}`)).toContain('Next.js 14');
    expect(under('## Recent sessions here')).toMatch(/npm test passed/);
  });
});
