/**
 * A tentative suggestion the agent argued against and the person let go is no candidate; one said
 * firmly, one the agent took up, and one the person pressed after the agent's reply are.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { tempDirsPerTest } from '../../helpers/daemon.js';
import { ClaudeSession } from '../../helpers/session-lines.js';
import { candidatesOf, texts } from './helpers.js';

const tmp = tempDirsPerTest(afterEach, 'ns-cand-declined-');
let n = 0;

/** The suggestion, the agent's check and reply, then the person's next message (none: the session ends). */
function floated(suggestion: string, reply: string, next?: string): ClaudeSession {
  const s = new ClaudeSession({ sessionId: `declined-${n++}`, cwd: '/work/tides' })
    .user('Add the monthly tide chart to the harbour page.')
    .assistant('Added the chart.')
    .user(suggestion)
    .toolUse('c1', 'Bash', { command: 'ruby -e "p 1"' })
    .toolResult('c1', '1')
    .assistant(reply);
  if (next !== undefined) s.user(next).assistant('On it.');
  return s;
}

const kept = async (s: ClaudeSession, said: RegExp) => texts(await candidatesOf(tmp(), s)).some((t) => said.test(t));

describe('a suggestion the person floated and let go', () => {
  it.each([
    [
      'maybe the tide heights should be cast to float before the average',
      "I'd leave them as BigDecimal: the average is exact and rounds once at the end.",
      'ok, on to the legend',
    ],
    [
      'perhaps we could cache the tide table in Redis',
      "I wouldn't: the table is 2 KB and read once per request, so memory is faster.",
      'fine, next the print view',
    ],
    ['what about storing the station list in a YAML file', 'No need: the station list already lives in the stations table with its admin page.', undefined],
  ])('"%s" is no candidate once the agent argued against it and the person moved on', async (suggestion, reply, next) => {
    expect(await kept(floated(suggestion, reply, next), /cast to float|Redis|YAML/)).toBe(false);
  });

  it('stands when it was said firmly, taken up, or pressed after the reply', async () => {
    const argued = "I'd leave them as BigDecimal: the average is exact and rounds once at the end.";
    expect(await kept(floated('The tide heights are cast to float before the average.', argued, 'ok, on to the legend'), /cast to float/)).toBe(true);
    expect(
      await kept(floated('maybe the tide heights should be cast to float before the average', 'Good idea, casting them now.', 'ok'), /cast to float/),
    ).toBe(true);
    // Pressed, it stands as the person last put it.
    expect(
      await kept(
        floated('maybe the tide heights should be cast to float before the average', argued, 'no, cast them to float, the chart library wants floats'),
        /cast (?:them )?to float/,
      ),
    ).toBe(true);
  });
});
