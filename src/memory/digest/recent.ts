/** The digests recall shows: the project's latest sessions that changed or ran something. */
import type { RecallItem } from '../../api/memory.js';
import { estimateTokens } from '../../llm/tokens.js';
import type { SessionRegistry } from '../sessions.js';
import { combine, digestLine, digestSources } from './render.js';
import type { DigestStore } from './store.js';

/** "Recent sessions here": at most this many digests, within their share of the budget. */
export const DIGESTS_MAX = 3;

/** The most recent sessions of the project that changed or ran something, as recall items. */
export function recentDigests(sessions: SessionRegistry, digests: DigestStore, project: string): RecallItem[] {
  const recent = sessions
    .list()
    .filter((s) => s.project === project && s.agentId === undefined && s.state === 'ingested')
    .sort((a, b) => (b.lastMessageAt ?? '').localeCompare(a.lastMessageAt ?? ''));
  const items: RecallItem[] = [];
  for (const s of recent) {
    if (items.length === DIGESTS_MAX) break;
    const main = digests.get(s.key);
    if (main === undefined) continue;
    const sidechains = sessions.sidechains(s.sessionId).flatMap((x) => digests.get(x.key) ?? []);
    const d = combine(main, sidechains);
    const text = digestLine(d);
    if (text === undefined) continue;
    items.push({
      kind: 'digest',
      id: s.sessionId,
      text,
      type: 'digest',
      scope: 'session',
      score: 0,
      tokens: estimateTokens(text) + 3,
      sources: [{ sessionId: s.sessionId, messageIds: digestSources(d) }],
      ...(d.lastAt !== undefined && { at: d.lastAt }),
    });
  }
  return items;
}
