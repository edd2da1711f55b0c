/** The agent's learnings (a cause and its fix) and the cheap test that lets most messages skip the search. */
import { describe, expect, it } from 'vitest';
import { findLearnings, mayHoldLearning } from '../../../src/memory/candidates/learnings.js';
import { sentenceTexts } from '../../../src/memory/candidates/unit.js';

const found = (text: string) => findLearnings(sentenceTexts(text)).map((l) => l.text);

describe('mayHoldLearning', () => {
  // Emphasis, emoji and paragraphs around and between the words a cause or a fix is named by.
  const written = [
    'I looked at the logs.\n\nThe **root cause** was the lockfile pinning an old driver. Fixed it by regenerating package-lock.json.',
    'Tests pass now. It turned out that the runner image shipped Node 18 without fetch in the test workers.',
    'Done ✅ The culprit was 🔥 a stale `dist/` folder in the Docker layer cache; fixed it with a clean build stage.',
    'The fix was to raise `max_connections` to 200 in postgres.conf for the worker pool.',
    'Summary: the bug __was__ a missing await in `saveInvoice()`, so the handler returned before the write.',
  ];

  it('is true of every text a learning is found in, however the words are dressed', () => {
    for (const text of written) {
      expect(found(text).length, text).toBeGreaterThan(0);
      expect(mayHoldLearning(text), text).toBe(true);
    }
  });

  it('is false of a message that names no cause and no fix, so its sentences are never split', () => {
    for (const text of ['I added the route and the tests pass.', 'Here is the plan:\n1. Add the model\n2. Wire the API', 'Which database should I use?'])
      expect(mayHoldLearning(text), text).toBe(false);
  });
});
