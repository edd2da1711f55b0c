/** The old thing an explicit change names (candidates/replaces.ts): what older memories it supersedes. */
import { describe, expect, it } from 'vitest';
import { findReplaced } from '../../../src/memory/candidates/replaces.js';

describe('what a change replaces', () => {
  it.each([
    ['We switched from jest to vitest last week.', ['jest']],
    ['Use pnpm instead of npm.', ['npm']],
    ["Don't run `cargo sqlx prepare` anymore and delete the .sqlx/ directory.", ['cargo sqlx prepare']],
    ["We don't install husky any more, the CI checks the commits.", ['husky']],
    ['We no longer use Redis for the sessions.', ['Redis']],
  ])('"%s" replaces %j', (sentence, old) => {
    expect(findReplaced(sentence)).toEqual(old);
  });

  it.each([['I prefer tabs over spaces.'], ['Run the migrations before the seed.'], ["Don't run the migrations, I do that."]])(
    '"%s" replaces nothing',
    (sentence) => {
      expect(findReplaced(sentence)).toBeUndefined();
    },
  );
});
