/**
 * Who said it, at candidate level: Claude Code's compaction and continuation text, and the agent's
 * words pasted back by the person, never become the person's statements.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { splitPasted, writtenLines } from '../../../src/memory/candidates/pasted.js';
import { isContinuationText } from '../../../src/memory/transcripts/index.js';
import { tempDirsPerTest } from '../../helpers/daemon.js';
import { ClaudeSession } from '../../helpers/session-lines.js';
import { candidatesOf, texts } from './helpers.js';

const tmp = tempDirsPerTest(afterEach, 'ns-cand-speaker-');

describe("Claude Code's continuation text", () => {
  it.each([
    'This session is being continued from a previous conversation that ran out of context.',
    'Please continue the conversation from where we left it off without asking the user any further questions.',
    'Continue the conversation from where it left off without asking the user any further questions.',
    'Continue with the last task that you were asked to work on.',
    'Resume directly — do not acknowledge the summary, do not recap what was happening.',
    'Pick up the last task as if the break never happened.',
    'If you need specific details from before compaction (like exact code snippets), read the full transcript at: /home/x/.claude/projects/p/s.jsonl',
  ])('is recognised: %s', (sentence) => {
    expect(isContinuationText(sentence)).toBe(true);
  });

  it.each([
    "Let's continue with the billing migration tomorrow.",
    'Always summarise the PR in the commit body.',
    'Continue where the parser stops on a blank line, do not skip it.',
  ])("is not the person's own words: %s", (sentence) => {
    expect(isContinuationText(sentence)).toBe(false);
  });

  it('is left out whether it comes inside a flagged summary, an old-style summary, or as a user line after it', async () => {
    const cwd = '/home/ana/src/ledger';
    const flagged = new ClaudeSession({ sessionId: 'cont-1', cwd })
      .user('Invoices are numbered per fiscal year, never globally.')
      .assistant('Understood.')
      .compactSummary(
        'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n1. Primary Request and Intent:\n   - Number invoices per fiscal year\n7. Next Step:\n   - Please continue the conversation from where we left it off without asking the user any further questions. Continue with the last task that you were asked to work on.\n\nIf you need specific details from before compaction, read the full transcript at: /home/ana/.claude/projects/x/cont-1.jsonl',
      );
    const oldStyle = new ClaudeSession({ sessionId: 'cont-2', cwd: '/home/ana/src/shop' })
      .user('The storefront talks to Stripe through the payments service only.')
      .assistant('Noted.')
      .user(
        'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nSummary:\n1. Primary Request and Intent:\n   - Route Stripe calls through the payments service',
      )
      .user('Resume directly — do not acknowledge the summary, do not recap what was happening. Pick up the last task as if the break never happened.')
      .assistant('Wiring the checkout to the payments service.');
    for (const s of [flagged, oldStyle]) {
      const all = texts(await candidatesOf(tmp(), s));
      expect(
        all.some((t) => /continue|resume|transcript at|being continued|summarized below|break never/i.test(t)),
        all.join('\n'),
      ).toBe(false);
      expect(all.length).toBeGreaterThan(0);
    }
  });

  it("a summary's note that the harness spoke among the person's messages is neither theirs nor learned", async () => {
    const s = new ClaudeSession({ sessionId: 'cont-3', cwd: '/home/ana/src/ledger' }).compactSummary(
      'This session is being continued from a previous conversation that ran out of context.\n\nSummary:\n6. All user messages:\n   - "Keep the ledger rows immutable, append corrections."\n   - System reminders about Credo linting issues (treated as automated feedback)\n   - Hook output about a failed compile',
    );
    const all = texts(await candidatesOf(tmp(), s));
    expect(all, all.join('\n')).toEqual(['Keep the ledger rows immutable, append corrections.']);
  });
});

describe("a compaction summary's errors and fixes", () => {
  it('leave out the note that the person said nothing of the error', async () => {
    const s = new ClaudeSession({ sessionId: 'cont-4', cwd: '/home/ana/src/ledger' }).compactSummary(
      'This session is being continued from a previous conversation that ran out of context.\n\nSummary:\n4. Errors and fixes:\n   - The migration used ALTER COLUMN, which SQLite does not support:\n     - Fixed by rebuilding the table\n     - User feedback: None, straightforward fix\n   - The seed script inserted duplicate rows:\n     - Fixed by adding a unique index\n     - User feedback: asked to keep the seed data small',
    );
    const all = texts(await candidatesOf(tmp(), s));
    expect(
      all.find((t) => t.includes('ALTER COLUMN')),
      all.join('\n'),
    ).not.toMatch(/feedback|None/);
    // Feedback the person did give is part of what was learned.
    expect(
      all.find((t) => t.includes('duplicate rows')),
      all.join('\n'),
    ).toMatch(/keep the seed data small/);
  });
});

describe('pasted agent output', () => {
  it('quoted after "you suggested…:" is not the person\'s, except the lines they keep', () => {
    const text =
      'This is what you suggested in the other session:\n\n  - Sessions are keyed by `tenantId`, not the user id.\n  - I added a `retryQueue` that replays failed webhooks.\n  - I pinned `undici` to 5.x to fix the socket leak.\n\nThe first two still hold, keep them. The undici pin never landed, ignore it.';
    const { own, kept } = splitPasted(text, new Set());
    expect(own).not.toMatch(/tenantId|retryQueue|undici` to 5/);
    expect(own).toMatch(/first two still hold/);
    expect(kept).toEqual(['Sessions are keyed by `tenantId`, not the user id.', 'I added a `retryQueue` that replays failed webhooks.']);
  });

  it("a `> ` quote or a `---` excerpt is the agent's; the reply around it is the person's", () => {
    const quoted = splitPasted(
      'Das hast du vorhin geschrieben:\n\n> Ich lade alle Bilder beim Start in den Speicher.\n\nSo nicht. Bilder immer lazy über das CDN laden.',
      new Set(),
    );
    expect(quoted.own).not.toMatch(/beim Start/);
    expect(quoted.own).toMatch(/lazy über das CDN/);
    const ruled = splitPasted(
      'from earlier:\n---\nI disabled the rate limiter in dev because Redis is not running locally.\n---\nkeep the dev config but Redis runs locally now',
      new Set(),
    );
    expect(ruled.own).not.toMatch(/disabled the rate limiter/);
    expect(ruled.kept).toEqual([]);
  });

  it("a line the assistant or a tool wrote earlier in the session is not the person's", () => {
    const earlier = writtenLines(['warning: unused variable `cursor` in crates/core/src/scan.rs', 'I moved the retry loop into the client.']);
    const { own } = splitPasted('fwiw\nwarning: unused variable `cursor` in crates/core/src/scan.rs\nfix the logic, do not silence lints', earlier);
    expect(own).not.toMatch(/unused variable/);
    expect(own).toMatch(/do not silence lints/);
  });

  it.each([
    'eslint on my machine says:\n\n/src/app.ts\n  12:5  error  Unexpected console statement  no-console\n\nfix the logic, do not silence lints',
    'getting this on staging:\n\nERROR: relation "invoices" does not exist\nLINE 1: SELECT * FROM invoices\n\nfix the logic, do not silence lints',
    'a mí también me sale en local:\n\nAssertionError: expected 200, got 404\n    at tests/api/users.test.ts:41\n\nfix the logic, do not silence lints',
  ])("a tool's output after a lead that hands it over is not the person's: %s", (text) => {
    const { own } = splitPasted(text, new Set());
    expect(own.trim().split('\n').pop()).toBe('fix the logic, do not silence lints');
    expect(own).not.toMatch(/console statement|does not exist|expected 200/);
  });

  it("a quote after a lead in Chinese is the agent's", () => {
    const { own } = splitPasted('你之前写的：\n“接口平均延迟已经降到 35 毫秒。”\n这个数字不对，压测用的是缓存数据，别再写进报告。', new Set());
    expect(own).not.toMatch(/35 毫秒/);
    expect(own).toMatch(/别再写进报告/);
  });

  it("the person's own list after a colon stays theirs", () => {
    const text = 'Can you add these rules to the repo:\n- always run ruff before committing\n- never commit notebooks with outputs';
    expect(splitPasted(text, new Set()).own).toBe(text);
  });

  it("lines copied from an agent CLI's screen (⏺, ⎿) are the agent's, whatever language they are in", async () => {
    const s = new ClaudeSession({ sessionId: 'paste-2', cwd: '/home/ana/src/triage' })
      .user(
        'The scraper always runs on the Oracle box, never locally.\nDeploys go through the deploy workflow only.\nThe bot posts its digest to the triage channel every morning.\n\n⏺ Bash(ssh -i vault/key ubuntu@10.0.0.5 "cat /root/.claude/x.jsonl")\n⏺ Na serveru neexistuje /root/.claude/ — Claude Code tam zřejmě není nainstalovaný.',
      )
      .assistant('Understood.');
    const all = texts(await candidatesOf(tmp(), s));
    expect(all.some((t) => /⏺|⎿|neexistuje|ubuntu@/.test(t))).toBe(false);
    expect(all.some((t) => /scraper always runs on the Oracle box/.test(t))).toBe(true);
  });

  it('through a session: the pasted lines are no candidate, the endorsed one is', async () => {
    const s = new ClaudeSession({ sessionId: 'paste-1', cwd: '/home/ana/src/notes' })
      .user('Notes app, SvelteKit + Drizzle.')
      .assistant('I set up Drizzle with SQLite for local dev. Note: the search endpoint returns 501 until FTS is wired, so I stubbed it.')
      .user(
        'you wrote this earlier:\n\n> I set up Drizzle with SQLite for local dev.\n> Note: the search endpoint returns 501 until FTS is wired, so I stubbed it.\n\nthe first one is right, keep it. search is already wired, remove the stub',
      )
      .assistant('Removed the stub.');
    const all = texts(await candidatesOf(tmp(), s));
    expect(all.filter((t) => /Drizzle with SQLite/.test(t))).toEqual(['I set up Drizzle with SQLite for local dev.']);
    expect(all.some((t) => /returns 501/.test(t))).toBe(false);
    expect(all.some((t) => /remove the stub/.test(t))).toBe(true);
  });
});
