/** Where a memory came from: each source session (its transcript and record) and each source message in place, between its neighbours. */
import type { SourceMessage } from '../../../api/memory-browse.js';
import { call } from '../api.js';
import { ErrorLine } from '../pager.js';
import { useLoad } from '../use-load.js';
import { at } from '../base.js';

export function Provenance({ id, version }: { id: string; version: number }) {
  const r = useLoad((signal) => call('memorySources', { params: { id } }, signal), `${id}|${version}`);
  const sources = r.data?.sources;
  return (
    <section class="provenance" aria-labelledby="provenance-h">
      <h2 id="provenance-h">Where it came from</h2>
      <ErrorLine error={r.error} />
      {sources && sources.length === 0 && <p class="muted">No session: it was written by hand or imported.</p>}
      {sources?.map((s) => (
        <article key={s.sessionId} class="source" data-session={s.sessionId}>
          <h3>
            session{' '}
            {s.session ? (
              <a href={at(`/sessions/${encodeURIComponent(s.session.key)}`)}>{s.sessionId}</a>
            ) : (
              <span>
                {s.sessionId} <span class="muted">(never ingested)</span>
              </span>
            )}
          </h3>
          {s.session && (
            <p class="muted">
              transcript <code class="path">{s.session.path}</code>
            </p>
          )}
          {s.error && <p class="error">{s.error.message}</p>}
          {s.messages.map((msg) => (
            <Message key={msg.id} msg={msg} />
          ))}
        </article>
      ))}
    </section>
  );
}

const where = (msg: SourceMessage) => (msg.line !== undefined ? `line ${msg.line}` : 'line unknown');

function Message({ msg }: { msg: SourceMessage }) {
  if (!msg.found)
    return (
      <p class="source-msg muted" data-message={msg.id}>
        message {msg.id}: not found in the transcript or its index
      </p>
    );
  return (
    <details class="source-msg" data-message={msg.id} open>
      <summary>
        <span class="line-no">{where(msg)}</span> · {msg.role ?? msg.kind} {msg.at && <span class="muted">{msg.at}</span>}
      </summary>
      <ol class="context">
        {msg.before.map((n) => (
          <li key={n.id} class="neighbour">
            <span class="role">{n.role}</span> {n.text}
          </li>
        ))}
        <li class="said" aria-current="true">
          <span class="role">{msg.role}</span> {msg.text}
        </li>
        {msg.after.map((n) => (
          <li key={n.id} class="neighbour">
            <span class="role">{n.role}</span> {n.text}
          </li>
        ))}
      </ol>
    </details>
  );
}
