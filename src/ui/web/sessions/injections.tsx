/**
 * What the hooks injected into one session (`GET /v1/injections?session=`), newest first: each
 * injection's items with why each was chosen and its tokens. "Not useful" on a memory rejects it
 * in that injection's project: it is not injected there again unless a later session reinforces it.
 */
import { useState } from 'preact/hooks';
import type { InjectedItem, Injection } from '../../../api/injections.js';
import { call } from '../api.js';
import { at } from '../base.js';
import { ErrorLine } from '../pager.js';
import { useLoad } from '../use-load.js';

export function SessionInjections({ sessionId }: { sessionId: string }) {
  const r = useLoad((signal) => call('injections', { query: { session: sessionId, limit: 200 } }, signal), sessionId);
  const list = r.data?.injections.filter((i) => i.sessionId === sessionId) ?? [];
  return (
    <section aria-labelledby="session-injections-h">
      <h2 id="session-injections-h">
        What it was given{' '}
        {r.data && (
          <span class="muted">
            ({list.length} injections, {list.reduce((n, i) => n + i.tokens, 0)} tokens)
          </span>
        )}
      </h2>
      <ErrorLine error={r.error} />
      {r.data && list.length === 0 && <p class="muted">Nothing was injected into this session.</p>}
      {list.map((i) => (
        <InjectionView key={i.id} injection={i} />
      ))}
    </section>
  );
}

function InjectionView({ injection: v }: { injection: Injection }) {
  return (
    <div class="injection" data-injection={v.id}>
      <h3>
        {v.event === 'session-start' ? 'Session start' : 'Prompt'}{' '}
        <span class="muted">
          {v.at.replace('T', ' ').slice(0, 19)} · {v.tokens} tokens
        </span>
      </h3>
      <table>
        <thead>
          <tr>
            <th>item</th>
            <th>score</th>
            <th>why</th>
            <th>tokens</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {v.items.map((item) => (
            <ItemRow key={`${item.kind}:${item.id}`} injection={v.id} item={item} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function ItemRow({ injection, item }: { injection: string; item: InjectedItem }) {
  const [state, setState] = useState<'idle' | 'busy' | 'rejected'>('idle');
  const [error, setError] = useState<string | null>(null);
  const reject = () => {
    setState('busy');
    call('rejectMemory', { params: { id: item.id }, body: { injection } })
      .then(() => setState('rejected'))
      .catch((err: Error) => {
        setError(err.message);
        setState('idle');
      });
  };
  return (
    <tr data-item={item.id} data-kind={item.kind}>
      <td>
        {item.kind === 'memory' ? <a href={at(`/memories/${item.id}`)}>{item.text}</a> : <span class="injected-text">{item.text}</span>}{' '}
        <span class="muted">{item.kind}</span>
      </td>
      <td>{item.score.toFixed(2)}</td>
      <td>{item.why.join(', ')}</td>
      <td>{item.tokens}</td>
      <td>
        {item.kind === 'memory' &&
          (state === 'rejected' ? (
            <span class="muted rejected">rejected: not shown in this project again unless reinforced</span>
          ) : (
            <button type="button" class="not-useful" disabled={state === 'busy'} onClick={reject}>
              Not useful
            </button>
          ))}
        <ErrorLine error={error} />
      </td>
    </tr>
  );
}
