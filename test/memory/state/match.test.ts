/** Whether two records of the agent name the same piece of work (state/match.ts). */
import { describe, expect, it } from 'vitest';
import { covers, saysAsWell } from '../../../src/memory/state/match.js';

describe('covers', () => {
  it('a commit naming the tracker id of an open item closes it, however differently worded', () => {
    expect(
      covers(
        'feat: launch project review conversation (spotter-gqc.7)',
        '**spotter-gqc.7** (open, blocked by gqc.5): start the review chat with injected context',
      ),
    ).toBe(true);
    expect(covers('fix: PROJ-142 retry the upload', 'PROJ-142: uploads fail on flaky networks')).toBe(true);
    expect(covers('Closes #45 by adding the index', 'Slow search (#45)')).toBe(true);
  });

  it('another id, a version or a colour is not the same work', () => {
    expect(covers('feat: spotter-gqc.6 close the session', '**spotter-gqc.7** (open): launch the review chat')).toBe(false);
    expect(covers('chore: bump node to v20.1', 'upgrade the v20.1 runtime image for the workers')).toBe(false);
    expect(covers('style: use #fff for the header', 'Slow search (#45)')).toBe(false);
  });

  it('without an id, most of the item’s words must be in the closing record', () => {
    expect(covers('add retry to the S3 upload', 'retry S3 uploads')).toBe(true);
    expect(covers('add retry to the S3 upload', 'write the migration for orders')).toBe(false);
  });
});

describe('covers, a closing condition aside', () => {
  it('reads what the item names before its "once …", and keeps "when …", which says what the work is', () => {
    const item = 'switch the lookup from the staging mirror to world.openfoodfacts.org once testing is done';
    expect(covers('Switch the lookup to world.openfoodfacts.org', item)).toBe(true);
    expect(covers('Switch the lookup to world.openfoodfacts.org', item.replace(' once testing is done', ' for the pantry and the shopping list'))).toBe(false);
    expect(covers('Fix the crash', 'fix the crash when the list is empty')).toBe(false);
  });
});

describe('saysAsWell', () => {
  it('a commit that covers a task says it as well only when it states every value the task states', () => {
    const commit = 'feat(media): retry failed thumbnails with exponential backoff';
    expect(saysAsWell(commit, 'Retry policy for failed thumbnails (max_attempts 5, exponential backoff)')).toBe(false);
    expect(saysAsWell(commit, 'Retry failed thumbnails with exponential backoff')).toBe(true);
    expect(saysAsWell('Bump node to 22 in CI', 'Bump node to 22 in the CI config')).toBe(true);
  });

  it("a step's or a work id's number is no value", () => {
    expect(saysAsWell('feat: implement the importer phase', 'Implement phase 2 of the importer')).toBe(true);
    expect(saysAsWell('feat: add annotations (spotter-gqc.5)', 'spotter-gqc.5: add annotations to the review page')).toBe(true);
  });
});
