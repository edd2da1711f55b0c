/** The task list: a page at a time from the daemon (filters applied there), kept fresh by task events. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { Task, TaskStatus } from '../../../api/tasks.js';
import { statusOf } from '../../../api/task-status.js';
import { call, type Json } from '../api.js';
import { AttentionBadge, StateBadge } from '../badges.js';
import { ago, bytesText, commandText, STATE_LABELS } from '../format.js';
import { useListKeys } from '../list-keys.js';
import { Pager } from '../pager.js';
import { useTaskEvents } from '../task-events.js';
import { at } from '../base.js';

export const PAGE_SIZE = 50;

interface Filters {
  /** active (running and queued), all, or one state. */
  state: string;
  group: string;
  attention: boolean;
  page: number;
}

function readFilters(q: Record<string, string>): Filters {
  return { state: q.state ?? 'active', group: q.group ?? '', attention: q.attention === '1', page: Math.max(0, Number(q.page ?? 0) || 0) };
}

function hrefOf(f: Filters): string {
  const qs = new URLSearchParams();
  if (f.state !== 'active') qs.set('state', f.state);
  if (f.group) qs.set('group', f.group);
  if (f.attention) qs.set('attention', '1');
  if (f.page > 0) qs.set('page', String(f.page));
  return at(qs.size > 0 ? `/tasks?${qs}` : '/tasks');
}

function listQuery(f: Filters) {
  const status = f.state in STATE_LABELS ? (f.state as TaskStatus) : undefined;
  return {
    all: f.state === 'active' ? '0' : '1',
    status,
    group: f.group || undefined,
    attention: f.attention ? '1' : undefined,
    order: 'desc',
    offset: f.page * PAGE_SIZE,
    limit: PAGE_SIZE,
  } as const;
}

export function TasksPage() {
  const { query, route } = useLocation();
  const f = readFilters(query);
  const [list, setList] = useState<Json<'listTasks'> | null>(null);
  const [groups, setGroups] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const key = hrefOf(f);
  const refresh = useCallback(() => {
    call('listTasks', { query: listQuery(f) })
      .then((r) => {
        setList(r);
        setError(null);
      })
      .catch((err: Error) => setError(err.message));
  }, [key]);
  useEffect(refresh, [refresh]);
  useEffect(() => {
    call('listGroups')
      .then((r) => setGroups(r.groups.map((g) => g.name)))
      .catch(() => undefined);
  }, []);
  // Any change to a task may move it in or out of this page: ask again, at most every 300 ms.
  const pending = useRef<number | undefined>(undefined);
  useTaskEvents(() => {
    if (pending.current !== undefined) return;
    pending.current = window.setTimeout(() => {
      pending.current = undefined;
      refresh();
    }, 300);
  });
  useEffect(() => () => window.clearTimeout(pending.current), []);
  const table = useListKeys<HTMLTableSectionElement>('a.task-link');
  const go = (next: Partial<Filters>) => route(hrefOf({ ...f, page: 0, ...next }), true);
  const total = list?.total ?? 0;

  return (
    <section>
      <h1>Tasks</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          State{' '}
          <select value={f.state} onChange={(e) => go({ state: e.currentTarget.value })}>
            <option value="active">running and queued</option>
            <option value="all">all</option>
            {Object.entries(STATE_LABELS).map(([v, label]) => (
              <option key={v} value={v}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Group{' '}
          <select value={f.group} onChange={(e) => go({ group: e.currentTarget.value })}>
            <option value="">any</option>
            {groups.map((g) => (
              <option key={g} value={g}>
                {g}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={f.attention} onChange={(e) => go({ attention: e.currentTarget.checked })} /> needs attention
        </label>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {list && list.tasks.length === 0 && <p class="muted">No tasks here.</p>}
      {list && list.tasks.length > 0 && (
        <table class="tasks">
          <thead>
            <tr>
              <th scope="col">id</th>
              <th scope="col">task</th>
              <th scope="col">state</th>
              <th scope="col">group</th>
              <th scope="col">age</th>
              <th scope="col">output</th>
            </tr>
          </thead>
          <tbody ref={table} data-total={total}>
            {list.tasks.map((t) => (
              <TaskRow key={t.id} task={t} />
            ))}
          </tbody>
        </table>
      )}
      {list && <Pager page={f.page} size={PAGE_SIZE} total={total} onPage={(page) => go({ page })} labels={['← newer', 'older →']} />}
    </section>
  );
}

function TaskRow({ task: t }: { task: Task }) {
  return (
    <tr data-task={t.id} data-status={statusOf(t)}>
      <td>
        <a class="task-link" href={at(`/tasks/${t.id}`)}>
          {t.id}
        </a>
      </td>
      <td class="command" title={commandText(t)}>
        {t.name ? <strong>{t.name} </strong> : null}
        <code>{commandText(t)}</code>
      </td>
      <td>
        <StateBadge task={t} /> <AttentionBadge task={t} />
      </td>
      <td>{t.group ?? 'default'}</td>
      <td title={t.createdAt}>{ago(t.createdAt)}</td>
      <td>{bytesText(t.outputBytes)}</td>
    </tr>
  );
}
