/** How a session's figures read: tokens, cost, who extracted it. */
import type { SessionRecord } from '../../../api/memory.js';
import { at } from '../base.js';

export const tokensText = (t: SessionRecord['tokens']): string =>
  t.input + t.output === 0 ? '—' : `${t.input.toLocaleString('en')} in / ${t.output.toLocaleString('en')} out`;

export const costText = (usd: number | undefined): string => (usd === undefined ? '—' : `$${usd.toFixed(usd < 0.01 ? 4 : 2)}`);

export const extractorText = (s: SessionRecord): string => `${s.extractor ?? '—'}${s.fallback ? ` (fell back: ${s.fallback})` : ''}`;

export const sessionHref = (s: Pick<SessionRecord, 'key'>): string => at(`/sessions/${encodeURIComponent(s.key)}`);
