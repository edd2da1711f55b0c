import { describe, expect, it } from 'vitest';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import {
  buildSummarizeRequest,
  COMPACT_PROMPT,
  COMPACT_SYSTEM,
  findCut,
  parseSummary,
  summaryMessageText,
} from '../../../src/agent/context/compaction-summary.js';
import { currentTurnStart } from '../../../src/agent/context/blocks.js';
import { messagesTokens } from '../../../src/agent/context/token-count.js';
import { checkInvariants } from '../../../src/agent/context/invariants.js';
import { call, filler, user } from './helpers.js';

const ANSWER = `<analysis>
Let me think: the user wants X. Scratch work that must not survive.
</analysis>
<summary>
## Goal
Port the parser to streaming.
## Constraints
- keep Node 20 support
- no new dependencies
## Done
- read src/parse.ts
## Current
Rewriting parseChunk.
## Remaining
- tests
- docs
## Decisions
- streaming parser over DOM — the inputs reach 2 GB
## Errors
- Error: ENOENT: no such file or directory, open 'fixtures/a.csv'
## Files
- src/parse.ts — rewritten
## Next step
Run the tests.
</summary>`;

describe('compaction prompt and parsing', () => {
  it('asks for analysis then a summary with every section', () => {
    for (const s of [
      '<analysis>',
      '<summary>',
      '## Goal',
      '## Constraints',
      '## Done',
      '## Current',
      '## Remaining',
      '## Decisions',
      '## Errors',
      '## Files',
      '## Next step',
      'verbatim',
      'exact message',
    ]) {
      expect(COMPACT_PROMPT).toContain(s);
    }
  });

  it('strips the analysis and parses the sections', () => {
    const r = parseSummary(ANSWER);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.text).not.toContain('Scratch work');
    expect(r.value.text.startsWith('## Goal')).toBe(true);
    expect(r.value).toMatchObject({
      goal: 'Port the parser to streaming.',
      constraints: ['keep Node 20 support', 'no new dependencies'],
      done: ['read src/parse.ts'],
      current: 'Rewriting parseChunk.',
      remaining: ['tests', 'docs'],
      decisions: ['streaming parser over DOM — the inputs reach 2 GB'],
      errors: ["Error: ENOENT: no such file or directory, open 'fixtures/a.csv'"],
      files: ['src/parse.ts — rewritten'],
      nextStep: 'Run the tests.',
    });
  });

  it('accepts an answer without tags, rejects an empty one', () => {
    expect(parseSummary('## Goal\nG\n## Errors\n- none').ok).toBe(true);
    expect(parseSummary('<analysis>only thinking</analysis>').ok).toBe(false);
    const bad = parseSummary('<analysis>x</analysis><summary>  </summary>');
    expect(!bad.ok && bad.error.code).toBe('compaction_failed');
  });

  it('the summary message carries the task verbatim and the notes', () => {
    const t = summaryMessageText({ task: 'Do X exactly so.', summary: 'S', notes: '### Decisions\n0. D', compaction: 2 });
    expect(t).toContain('<task>\nDo X exactly so.\n</task>');
    expect(t).toContain('0. D');
    expect(t).toContain('compaction 2');
  });
});

describe('cut point', () => {
  const history = (): MessageParam[] => {
    const h: MessageParam[] = [user('task')];
    for (let i = 0; i < 10; i++) h.push(...call(`t${i}`, 'bash', {}, filler(4000, `o${i}`)));
    return h;
  };

  it('keeps the newest turns within the budget and never splits a tool_use from its result', () => {
    const h = history();
    const cut = findCut(h, 3000, currentTurnStart(h));
    expect(cut).toBeDefined();
    const tail = h.slice(cut);
    expect(tail[0]?.role).toBe('assistant'); // starts with a tool_use whose result follows
    expect(messagesTokens(tail)).toBeLessThanOrEqual(3000);
    expect(checkInvariants([user('summary'), ...tail])).toEqual([]);
  });

  it('keeps at least the current turn, even when it is over the budget', () => {
    const h = history();
    const cut = findCut(h, 10, currentTurnStart(h));
    expect(cut).toBe(h.length - 2);
  });

  it('can cut before a plain user message', () => {
    const h = [...history(), { role: 'assistant', content: [{ type: 'text', text: 'done' }] } as MessageParam, user('next question')];
    expect(findCut(h, 10, currentTurnStart(h))).toBe(h.length - 1);
  });

  it('finds no cut when there is nothing before the current turn', () => {
    expect(findCut([user('only')], 1000, 0)).toBeUndefined();
  });
});

describe('summarisation request', () => {
  it('cuts tool output for the summariser, ends with the prompt and satisfies the invariants', () => {
    const h: MessageParam[] = [user('task'), ...call('a', 'bash', {}, `HEAD${filler(20_000)}TAIL`)];
    const r = buildSummarizeRequest(h, { maxInputTokens: 100_000, toolResultChars: 2000, maxTokens: 1000 });
    expect(r.system).toBe(COMPACT_SYSTEM);
    expect(r.maxTokens).toBe(1000);
    const json = JSON.stringify(r.messages);
    expect(json).toContain('HEAD');
    expect(json).toContain('TAIL');
    expect(json.length).toBeLessThan(6000);
    const last = r.messages[r.messages.length - 1] as MessageParam;
    expect(JSON.stringify(last)).toContain('The context window is full');
    expect(checkInvariants(r.messages)).toEqual([]);
    expect(h[2]?.content).toEqual([{ type: 'tool_result', tool_use_id: 'a', content: `HEAD${filler(20_000)}TAIL` }]); // not modified
  });

  it('shrinks until it fits, keeping the first message', () => {
    const h: MessageParam[] = [user('THE TASK')];
    for (let i = 0; i < 40; i++) h.push(...call(`t${i}`, 'bash', { command: `step ${i}` }, filler(3000)));
    const r = buildSummarizeRequest(h, { maxInputTokens: 2500, toolResultChars: 2000, maxTokens: 500 });
    expect(messagesTokens(r.messages)).toBeLessThanOrEqual(2500);
    expect(JSON.stringify(r.messages[0])).toContain('THE TASK');
    expect(JSON.stringify(r.messages)).toContain('step 39');
    expect(checkInvariants(r.messages)).toEqual([]);
  });
});
