/** Ingested sessions a page at a time (latest first), by project, and a search of what was said in them. */
import { useLocation } from 'preact-iso';
import type { SearchHit, SessionRecord } from '../../../api/memory.js';
import { call } from '../api.js';
import { ago } from '../format.js';
import { useListKeys } from '../list-keys.js';
import { ErrorLine, Pager } from '../pager.js';
import { ProjectSelect, useProjects } from '../projects.js';
import { hrefOf, listQuery, PAGE_SIZE, readFilters, type SessionFilters } from '../sessions/filters.js';
import { costText, extractorText, sessionHref, tokensText } from '../sessions/format.js';
import { useLoad } from '../use-load.js';

export function SessionsPage() {
  const { query, route } = useLocation();
  const f = readFilters(query);
  const projects = useProjects();
  const list = useLoad((signal) => call('sessions', { query: listQuery(f) }, signal), hrefOf(f), true);
  const go = (next: Partial<SessionFilters>) => route(hrefOf({ ...f, page: 0, ...next }), true);
  const table = useListKeys<HTMLTableSectionElement>('a.session-link');
  const hits = new Map((list.data?.matches ?? []).map((m) => [m.sessionId, m.hits]));
  const total = list.data?.total ?? list.data?.sessions.length ?? 0;
  return (
    <section>
      <h1>Sessions</h1>
      <form
        class="filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          go({ q: String(new FormData(e.currentTarget).get('q') ?? '').trim() });
        }}
      >
        <ProjectSelect projects={projects} value={f.project} onChange={(project) => go({ project })}>
          <option value="">any</option>
        </ProjectSelect>
        <label>
          Search <input type="search" name="q" defaultValue={f.q} key={f.q} placeholder="what was said or done" />
        </label>
        <button type="submit">Search</button>
      </form>
      <ErrorLine error={list.error} />
      {list.data && list.data.sessions.length === 0 && <p class="muted">{f.q ? 'No session matches.' : 'No sessions here.'}</p>}
      {list.data && list.data.sessions.length > 0 && (
        <table class="list sessions">
          <thead>
            <tr>
              <th scope="col">session</th>
              <th scope="col">project</th>
              <th scope="col">state</th>
              <th scope="col">messages</th>
              <th scope="col">memories</th>
              <th scope="col">model tokens</th>
              <th scope="col">cost</th>
              <th scope="col">extractor</th>
              <th scope="col">last message</th>
            </tr>
          </thead>
          <tbody ref={table} data-total={total}>
            {list.data.sessions.map((s) => (
              <SessionRow key={s.key} s={s} hits={hits.get(s.sessionId)} />
            ))}
          </tbody>
        </table>
      )}
      {list.data && <Pager page={f.page} size={PAGE_SIZE} total={total} onPage={(page) => go({ page })} />}
    </section>
  );
}

function SessionRow({ s, hits }: { s: SessionRecord; hits: SearchHit[] | undefined }) {
  return (
    <>
      <tr data-session={s.sessionId}>
        <td>
          <a class="session-link" href={sessionHref(s)}>
            {s.sessionId}
          </a>
          {s.agentId && <span class="muted"> ({s.agentId})</span>}
        </td>
        <td class="where">{s.project ?? '—'}</td>
        <td>
          <span class={`badge session-${s.state}`} title={s.error}>
            {s.state}
          </span>
        </td>
        <td class="num">{s.messages}</td>
        <td class="num">{s.memories}</td>
        <td>{tokensText(s.tokens)}</td>
        <td class="num">{costText(s.costUsd)}</td>
        <td>{extractorText(s)}</td>
        <td title={s.lastMessageAt}>{s.lastMessageAt ? `${ago(s.lastMessageAt)} ago` : '—'}</td>
      </tr>
      {hits && hits.length > 0 && (
        <tr class="hits">
          <td colSpan={9}>
            <ul>
              {hits.slice(0, 3).map((h) => (
                <li key={h.messageId}>
                  <span class="role">{h.role}</span> {h.text}
                </li>
              ))}
            </ul>
          </td>
        </tr>
      )}
    </>
  );
}
