/** What happened to a memory, oldest first, with links to the memories, sessions and dreams involved. */
import type { HistoryEvent } from '../../../api/memory-browse.js';
import { call } from '../api.js';
import { ErrorLine } from '../pager.js';
import { useLoad } from '../use-load.js';
import { at } from '../base.js';

const VERBS: Record<HistoryEvent['kind'], string> = {
  created: 'created',
  reinforced: 'reinforced',
  edited: 'edited',
  pinned: 'pinned',
  forgotten: 'forgotten',
  archived: 'archived',
  restored: 'restored',
  superseded: 'superseded by',
  supersedes: 'supersedes',
  merged: 'merged into',
  absorbed: 'absorbed',
  masked: 'secret masked',
  rejected: 'rejected as not useful',
  unrejected: 'rejection undone',
};

export function History({ id, version }: { id: string; version: number }) {
  const r = useLoad((signal) => call('memoryHistory', { params: { id } }, signal), `${id}|${version}`);
  return (
    <section class="history" aria-labelledby="history-h">
      <h2 id="history-h">History</h2>
      <ErrorLine error={r.error} />
      {r.data && (
        <ol class="timeline">
          {r.data.events.map((e, i) => (
            <Event key={i} e={e} />
          ))}
        </ol>
      )}
    </section>
  );
}

function Event({ e }: { e: HistoryEvent }) {
  return (
    <li data-kind={e.kind}>
      <span class="when">{e.at ?? 'at an unknown time'}</span> <strong>{VERBS[e.kind]}</strong>
      {e.memoryId && (
        <>
          {' '}
          <a href={at(`/memories/${e.memoryId}`)}>{e.memoryId}</a>
          {e.text !== undefined && <q class={e.text === null ? 'muted' : undefined}>{e.text ?? 'no longer stored'}</q>}
        </>
      )}
      {e.origin && <span class="muted"> ({e.origin})</span>}
      {e.project !== undefined && <span> in {e.project ?? 'no project'}</span>}
      {e.sessionId && (
        <>
          {' '}
          in session <a href={at(`/sessions/${encodeURIComponent(e.sessionId)}`)}>{e.sessionId}</a>
        </>
      )}
      {e.dreamId && (
        <>
          {' '}
          by dream <a href={at(`/dreams/${e.dreamId}`)}>{e.dreamId}</a>
        </>
      )}
      {e.kind === 'edited' && (
        <div class="diff">
          <del>{e.from}</del> → <ins>{e.to}</ins>
        </div>
      )}
      {e.kind !== 'edited' && e.from && <span class="muted"> (was {e.from})</span>}
      {e.reason && <div class="reason">{e.reason}</div>}
    </li>
  );
}
