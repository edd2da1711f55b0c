/** The dream masks personal data a store from before the personal layer still holds, as it masks secrets. */
import { describe, expect, it } from 'vitest';
import type { Memory } from '../../src/api/memory.js';
import { planSecrets } from '../../src/dream/consolidate.js';
import { emptyPlan } from '../../src/dream/plan.js';

const memory = (id: string, content: string): Memory => ({
  id,
  content,
  type: 'instruction',
  scope: 'project',
  project: '/srv/repos/ledger',
  stable: false,
  pinned: false,
  importance: 0.6,
  createdAt: '2026-10-01T09:00:00.000Z',
  lastSeenAt: '2026-10-01T09:00:00.000Z',
  reinforcements: 0,
  sources: [],
  origin: 'heuristic',
});

describe('planSecrets on personal data', () => {
  it('masks an address kept in a rule, drops one that was only a number, and leaves clean memories alone', () => {
    const plan = emptyPlan();
    const found = planSecrets(
      [
        memory('m1', 'Always copy finance-lead.marisol@larkspur-trading.com on the month-end report.'),
        memory('m2', 'my mobile is +1 646 555 0199'),
        memory('m3', 'Amounts are integer cents; never use floats for money.'),
      ],
      plan,
    );
    expect(found).toBe(0); // the count is the secrets'
    expect(plan.mask).toEqual([
      { id: 'm1', text: 'Always copy [REDACTED:email] on the month-end report.' },
      { id: 'm2', text: null },
    ]);
  });
});
