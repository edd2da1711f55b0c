import { describe, expect, it } from 'vitest';
import type { Memory } from '../../src/api/memory.js';
import { evidenceRows } from '../../src/cli/memory-evidence.js';

const at = '2026-01-02T10:00:00.000Z';
const memory = (extra: Partial<Memory>): Memory => ({
  ...{ id: 'm000000000001', content: 'The billing handler lives in src/billing.ts.', type: 'fact', scope: 'project', project: '/repo' },
  ...{ stable: false, pinned: false, importance: 0.6, createdAt: at, lastSeenAt: at, reinforcements: 0, sources: [], origin: 'manual' },
  evidence: [{ kind: 'file', path: 'src/billing.ts', at, gone: true }],
  ...extra,
});

describe('memories show: gone evidence', () => {
  it('says the memory was archived for it while it is archived, and kept because restored once restored', () => {
    const archived = evidenceRows(memory({ archivedAt: at, archiveReason: 'src/billing.ts no longer exists' }));
    expect(archived).toEqual([['evidence', 'file src/billing.ts — gone (the memory was archived for it)']]);
    const restored = evidenceRows(memory({ restoredAt: at }));
    expect(restored).toEqual([['evidence', 'file src/billing.ts — gone, kept because the memory was restored']]);
  });
});
