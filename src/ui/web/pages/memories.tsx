/** The memories list: a project (or you, or everything), filters and search in the URL, a page at a time from the daemon. */
import { useLocation } from 'preact-iso';
import type { Memory } from '../../../api/memory.js';
import { call } from '../api.js';
import { ago } from '../format.js';
import { useListKeys } from '../list-keys.js';
import { MemoryBadges, whereText } from '../memories/badges.js';
import { ALL, hrefOf, listQuery, ORIGINS, PAGE_SIZE, readFilters, SCOPES, TYPES, type MemoryFilters } from '../memories/filters.js';
import { ErrorLine, Pager } from '../pager.js';
import { ProjectSelect, useProjects } from '../projects.js';
import { useLoad } from '../use-load.js';
import { at } from '../base.js';

export function MemoriesPage() {
  const { query, route } = useLocation();
  const f = readFilters(query);
  const projects = useProjects();
  // No project in the URL: the most recently active one (once the projects are known).
  const project = f.project ?? (projects ? (projects.projects[0]?.project ?? '') : undefined);
  const key = project === undefined ? '' : `${project}|${hrefOf(f)}`;
  const list = useLoad((signal) => (project === undefined ? Promise.resolve(null) : call('listMemories', { query: listQuery(f, project) }, signal)), key, true);
  const go = (next: Partial<MemoryFilters>) => route(hrefOf({ ...f, project, page: 0, ...next }), true);
  const table = useListKeys<HTMLTableSectionElement>('a.memory-link');
  const total = list.data?.total ?? 0;

  return (
    <section>
      <h1>Memories</h1>
      <p>
        <a href={at(`/memories/recall${project && project !== ALL ? `?project=${encodeURIComponent(project)}` : ''}`)}>Recall preview</a>
        <span class="muted"> — what a session starting in a project is given</span>
      </p>
      <Filters f={f} project={project ?? ''} projects={projects} go={go} />
      <ErrorLine error={list.error} />
      {list.data && list.data.memories.length === 0 && <p class="muted">No memories here.</p>}
      {list.data && list.data.memories.length > 0 && (
        <table class="list memories">
          <thead>
            <tr>
              <th scope="col">memory</th>
              <th scope="col">type</th>
              <th scope="col">where</th>
              <th scope="col">seen</th>
              <th scope="col">last seen</th>
            </tr>
          </thead>
          <tbody ref={table} data-total={total}>
            {list.data.memories.map((m) => (
              <MemoryRow key={m.id} memory={m} />
            ))}
          </tbody>
        </table>
      )}
      {list.data && <Pager page={f.page} size={PAGE_SIZE} total={total} onPage={(page) => go({ page })} />}
    </section>
  );
}

function Filters({
  f,
  project,
  projects,
  go,
}: {
  f: MemoryFilters;
  project: string;
  projects: ReturnType<typeof useProjects>;
  go: (n: Partial<MemoryFilters>) => void;
}) {
  const choice = (name: 'type' | 'scope' | 'origin', label: string, values: readonly string[]) => (
    <label>
      {label}{' '}
      <select name={name} value={String(f[name])} onChange={(e) => go({ [name]: e.currentTarget.value })}>
        <option value="">any</option>
        {values.map((v) => (
          <option key={v} value={v}>
            {v}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <form
      class="filters"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        go({ q: String(new FormData(e.currentTarget).get('q') ?? '').trim() });
      }}
    >
      <ProjectSelect projects={projects} value={project} onChange={(v) => go({ project: v })}>
        <option value="">you only</option>
        <option value={ALL}>everything (any state)</option>
      </ProjectSelect>
      <label>
        State{' '}
        <select
          name="state"
          value={f.state}
          disabled={project === ALL}
          onChange={(e) => go({ state: e.currentTarget.value === 'archived' ? 'archived' : 'active' })}
        >
          <option value="active">active</option>
          <option value="archived">archived and superseded</option>
        </select>
      </label>
      {choice('type', 'Type', TYPES)}
      {choice('scope', 'Scope', SCOPES)}
      {choice('origin', 'Origin', ORIGINS)}
      <label>
        <input type="checkbox" name="pinned" checked={f.pinned} onChange={(e) => go({ pinned: e.currentTarget.checked })} /> pinned
      </label>
      <label>
        Search <input type="search" name="q" defaultValue={f.q} key={f.q} placeholder="words (the search recall uses)" />
      </label>
      <button type="submit">Search</button>
    </form>
  );
}

function MemoryRow({ memory: m }: { memory: Memory }) {
  return (
    <tr data-memory={m.id}>
      <td class="memory-text">
        <a class="memory-link" href={at(`/memories/${m.id}`)}>
          {m.content}
        </a>{' '}
        <MemoryBadges memory={m} />
      </td>
      <td>{m.type}</td>
      <td class="where" title={whereText(m)}>
        {whereText(m)}
      </td>
      <td title="reinforcements">{m.reinforcements}</td>
      <td title={m.lastSeenAt}>{ago(m.lastSeenAt)}</td>
    </tr>
  );
}
