/** What a session offers the store (rank/proposals.ts): verdicts whatever their score, a pasted document's reference lines. */
import { describe, expect, it } from 'vitest';
import { extractOffline } from '../../../src/memory/extract/offline.js';
import { collectCandidates } from '../../../src/memory/candidates/index.js';
import { isVerdict } from '../../../src/memory/rank/kind.js';
import { keepPolicy, rank } from '../../../src/memory/rank/score.js';
import { sessionContext } from '../../../src/memory/rank/session-context.js';
import type { ExtractMessage } from '../../../src/memory/transcripts/types.js';

const typed = (id: string, text: string): ExtractMessage => ({ id, role: 'user', kind: 'text', origin: 'typed', text });
const offered = (...texts: string[]) => extractOffline({ sessionId: 's', messages: texts.map((t, i) => typed(`m${i}`, t)), maxMemories: 60 }).proposals;
const prose = (topic: string): string =>
  `The ${topic} is described here at some length so that the document reads like a brief and not like a message. ` +
  'It explains the background, the people who rely on it, and what went wrong with the way it is done today.';

const spec = [
  '# Billing export: specification',
  prose('export'),
  '## Stack',
  '- Runtime: Node.js 22 with Fastify 5.',
  '- The public API listens on port 8443 behind the internal proxy.',
  '- Reports are written to S3 as CSV, one file per day.',
  '## Background',
  prose('monthly close'),
  prose('reconciliation'),
].join('\n\n');

describe('proposals', () => {
  it("a pasted document's specific statements, and only those, are kept under the floor for a query to find", () => {
    const floor = keepPolicy().floor;
    const port = offered(spec).find((p) => /port 8443/.test(p.text));
    expect(port).toBeDefined();
    expect(port?.importance).toBeLessThan(floor);
    expect(port?.scope).toBe('project');
    expect(port?.replaces).toBeUndefined();
    // The background prose names no version, port or tool: nothing there to look up.
    expect(offered(spec).filter((p) => p.importance < floor && /explains the background|described here/.test(p.text))).toEqual([]);
  });

  it('a bounded number of them', () => {
    const floor = keepPolicy().floor;
    const services = Array.from({ length: 30 }, (_, i) => `- The worker number ${i + 1} listens on port ${9000 + i} inside the cluster.`);
    const long = [spec, '## Workers', ...services].join('\n\n');
    const reference = offered(long).filter((p) => p.importance < floor);
    expect(reference.length).toBeGreaterThan(3);
    expect(reference.length).toBeLessThanOrEqual(12);
  });

  it("a summary's error still being worked on is the work in hand, never a memory; one fixed is a lesson", () => {
    const summary = [
      'This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:',
      '',
      'Summary:',
      '1. Primary Request and Intent:',
      '   - Render the transcript panel with expandable tool results.',
      '4. Errors and fixes:',
      '   - CURRENT: Cannot invoke Access.get/2 inside a guard in transcript_components.ex (line 171).',
      '   - The Ecto sandbox needs the shared mode for LiveView tests: fixed by starting the owner with shared: true.',
    ].join('\n');
    const messages: ExtractMessage[] = [{ id: 'm0', role: 'user', kind: 'text', origin: 'summary', text: summary }];
    const out = extractOffline({ sessionId: 's', messages, maxMemories: 60 }).proposals.map((p) => p.text);
    expect(out.some((t) => /Access\.get/.test(t))).toBe(false);
    const kinds = rank(collectCandidates(messages), sessionContext(messages)).map((r) => [r.kind, r.candidate.text.slice(0, 24)]);
    expect(kinds).toContainEqual(['state', 'CURRENT: Cannot invoke A']);
    expect(kinds).toContainEqual(['fact', 'The Ecto sandbox needs t']);
  });

  it("the person's choice among the options of the agent's question is kept in a long session, whatever its score; a reply to an offer is ranked", () => {
    const busy = Array.from({ length: 40 }, (_, i) => typed(`t${i}`, `run the tests again and show me the output of step ${i}`));
    const messages: ExtractMessage[] = [
      ...busy,
      {
        id: 'a1',
        role: 'assistant',
        kind: 'text',
        text: 'Two questions:\n1. How should users set the gist visibility?\n2. Which client do we authenticate with?',
      },
      typed('m1', '1. unlisted only\n2. the gh CLI'),
      { id: 'a2', role: 'assistant', kind: 'text', text: 'Want me to clear the old cache directory?' },
      typed('m2', 'clear it out'),
    ];
    const floor = keepPolicy().floor;
    const ranked = rank(collectCandidates(messages), sessionContext(messages));
    const answers = ranked.filter((r) => r.candidate.source === 'answer');
    expect(answers.map((r) => isVerdict(r.kind, r.candidate))).toEqual([true, true, false]);
    // Ranked alone, a short answer at the end of a long session falls under the floor.
    expect(answers.some((r) => r.score < floor)).toBe(true);
    const kept = extractOffline({ sessionId: 's', messages, maxMemories: 60 }).proposals;
    for (const choice of [/unlisted only/, /gh CLI/]) expect(kept.find((p) => choice.test(p.text))?.importance).toBeGreaterThanOrEqual(floor);
  });

  it("what the person says is right of the agent's words they pasted back is a verdict; a pointer to the lines and a request to correct them are not", () => {
    const busy = Array.from({ length: 40 }, (_, i) => typed(`t${i}`, `run the tests again and show me the output of step ${i}`));
    const messages: ExtractMessage[] = [
      ...busy,
      typed(
        'm1',
        [
          'you wrote this earlier today:',
          '',
          '> Favourites are keyed by `placeId`, not the row id.',
          '> The tags endpoint returns 404, so I mocked it as an empty list.',
          '',
          'The first one is right and stays. keep the MSW handlers, that part is right. but correct that mock, the endpoint exists.',
        ].join('\n'),
      ),
    ];
    const ranked = rank(collectCandidates(messages), sessionContext(messages));
    const verdicts = ranked.filter((r) => isVerdict(r.kind, r.candidate)).map((r) => r.candidate.text);
    expect(verdicts.sort()).toEqual(['Favourites are keyed by `placeId`, not the row id.', 'keep the MSW handlers, that part is right.']);
    const floor = keepPolicy().floor;
    const kept = extractOffline({ sessionId: 's', messages, maxMemories: 60 }).proposals;
    for (const said of [/placeId/, /MSW handlers/]) expect(kept.find((p) => said.test(p.text))?.importance).toBeGreaterThanOrEqual(floor);
  });

  it('a statement typed as a message is ranked as one, never kept as a reference line', () => {
    const floor = keepPolicy().floor;
    const chat = offered('hi', 'The public API listens on port 8443 behind the internal proxy.', 'thanks');
    // A short session keeps what the person said, raised to the floor: never a lookup line under it.
    expect(chat.every((p) => p.importance >= floor)).toBe(true);
  });
});
