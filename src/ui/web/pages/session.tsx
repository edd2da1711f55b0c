/** One session (`GET /v1/sessions/:id`): its record, digest and sidechains, and the memories that came from it. */
import { useRoute } from 'preact-iso';
import type { SessionRecord } from '../../../api/memory.js';
import { ApiError, call } from '../api.js';
import { ago } from '../format.js';
import { MemoryBadges } from '../memories/badges.js';
import { ErrorLine } from '../pager.js';
import { Digest } from '../sessions/digest.js';
import { SessionInjections } from '../sessions/injections.js';
import { costText, extractorText, sessionHref, tokensText } from '../sessions/format.js';
import { useLoad } from '../use-load.js';
import { Facts } from '../facts.js';
import { at } from '../base.js';

/** More than a session gives in practice; the count says when there are more. */
const MEMORIES = 200;

export function SessionPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  // A session known only from its hooks (no transcript ingested yet) has no record: not an error.
  const r = useLoad(
    (signal) =>
      call('getSession', { params: { id } }, signal).then(
        (found) => ({ found }),
        (err: unknown) => {
          if (err instanceof ApiError && err.code === 'not_found') return { found: null };
          throw err;
        },
      ),
    id,
  );
  const found = r.data?.found;
  const s = found?.session;
  return (
    <section class="session">
      <p>
        <a href={at('/sessions')}>← Sessions</a>
      </p>
      <ErrorLine error={r.error} />
      {found === null && (
        <>
          <h1>
            Session <code>{id}</code>
          </h1>
          <p class="muted not-ingested">Not ingested yet: no transcript read so far. What its hooks gave it is below.</p>
        </>
      )}
      {s && found && (
        <>
          <h1>
            Session <code>{s.sessionId}</code>
            {s.agentId && <span class="muted"> (sidechain {s.agentId})</span>}
          </h1>
          <Record s={s} />
          <h2>Digest</h2>
          {found.digest ? <Digest digest={found.digest} /> : <p class="muted">No digest (nothing ingested yet).</p>}
          {found.sidechains.length > 0 && (
            <>
              <h2>Subagents and compactions</h2>
              <ul>
                {found.sidechains.map((c) => (
                  <li key={c.session.key}>
                    <a href={sessionHref(c.session)}>{c.session.agentId ?? c.session.key}</a> — {c.session.messages} messages
                    {c.digest && c.digest.outcome.length > 0 && `: ${c.digest.outcome.join(', ')}`}
                  </li>
                ))}
              </ul>
            </>
          )}
        </>
      )}
      {/* A live session, not ingested yet, has its injections too. Shown once the record is in, and
          above what loads after it, so its buttons do not move under a click. */}
      {(r.data !== null || r.error !== null) && <SessionInjections sessionId={s?.sessionId ?? id} />}
      {s && <SessionMemories sessionId={s.sessionId} />}
    </section>
  );
}

function Record({ s }: { s: SessionRecord }) {
  const rows: [string, string][] = [
    ['project', s.project ?? '—'],
    ['transcript', s.path],
    ['state', s.error ? `${s.state}: ${s.error}` : s.state],
    ['messages', `${s.messages}${s.malformedLines > 0 ? ` (${s.malformedLines} malformed lines)` : ''}`],
    ['read', `${s.offset.toLocaleString('en')} of ${s.size.toLocaleString('en')} bytes`],
    ['memories added', String(s.memories)],
    ['model tokens', tokensText(s.tokens)],
    ['cost', costText(s.costUsd)],
    ['extractor', extractorText(s)],
    ['first message', s.firstMessageAt ?? '—'],
    ['last message', s.lastMessageAt ? `${s.lastMessageAt} (${ago(s.lastMessageAt)} ago)` : '—'],
  ];
  if (s.reason) rows.push(['ended because', s.reason]);
  return <Facts rows={rows} />;
}

function SessionMemories({ sessionId }: { sessionId: string }) {
  const r = useLoad((signal) => call('listMemories', { query: { all: '1', session: sessionId, limit: MEMORIES } }, signal), sessionId);
  return (
    <section aria-labelledby="session-memories-h">
      <h2 id="session-memories-h">Memories from this session {r.data && <span class="muted">({r.data.total ?? r.data.memories.length})</span>}</h2>
      <ErrorLine error={r.error} />
      {r.data && r.data.memories.length === 0 && <p class="muted">None.</p>}
      <ul class="session-memories">
        {r.data?.memories.map((m) => (
          <li key={m.id} data-memory={m.id}>
            <a href={at(`/memories/${m.id}`)}>{m.content}</a> <span class="muted">{m.type}</span> <MemoryBadges memory={m} />
          </li>
        ))}
      </ul>
    </section>
  );
}
