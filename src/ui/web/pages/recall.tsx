/** Recall preview: exactly the block a session starting in a project is given (`POST /v1/recall` with `render`), and its items with their token counts. */
import { useLocation } from 'preact-iso';
import type { RecallItem } from '../../../api/memory.js';
import { call } from '../api.js';
import { ErrorLine } from '../pager.js';
import { ProjectSelect, useProjects } from '../projects.js';
import { useLoad } from '../use-load.js';
import { at } from '../base.js';

/** The daemon's default budget is its config's; the form starts from the usual one. */
const BUDGET = 2000;

export function RecallPage() {
  const { query, route } = useLocation();
  const projects = useProjects();
  const project = query.project ?? projects?.projects[0]?.project ?? '';
  const budget = Math.min(200_000, Math.max(50, Number(query.budget) || BUDGET));
  const ready = query.project !== undefined || projects !== null;
  const key = ready ? `${project}|${budget}` : '';
  // The project is always written (an empty one means none: your own memories only).
  const go = (p: string, b: number) => route(at(`/memories/recall?project=${encodeURIComponent(p)}&budget=${b}`), true);
  const r = useLoad(
    (signal) => (ready ? call('recall', { body: { ...(project && { project }), budget, render: true } }, signal) : Promise.resolve(null)),
    key,
    true,
  );
  return (
    <section class="recall">
      <p>
        <a href={at('/memories')}>← Memories</a>
      </p>
      <h1>Recall preview</h1>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          const data = new FormData(e.currentTarget);
          go(String(data.get('project') ?? ''), Number(data.get('budget')) || BUDGET);
        }}
      >
        <ProjectSelect projects={projects} value={project} onChange={(p) => go(p, budget)}>
          <option value="">none (your own memories)</option>
        </ProjectSelect>
        <label>
          Budget (tokens) <input type="number" name="budget" min={50} max={200000} defaultValue={String(budget)} key={budget} />
        </label>
        <button type="submit">Preview</button>
      </form>
      <ErrorLine error={r.error} />
      {r.data && (
        <>
          <p class="muted" data-tokens={r.data.tokens}>
            {r.data.items.length} items, {r.data.tokens} of {r.data.budget} tokens ({r.data.considered} considered)
          </p>
          <h2>The block, as the session-start hook injects it</h2>
          {r.data.rendered ? (
            <pre class="recall-block" tabIndex={0} aria-label="recall block">
              {r.data.rendered}
            </pre>
          ) : (
            <p class="muted">Nothing to recall here.</p>
          )}
          <Items items={r.data.items} />
        </>
      )}
    </section>
  );
}

function Items({ items }: { items: RecallItem[] }) {
  if (items.length === 0) return null;
  return (
    <table class="list recall-items">
      <caption>Items, in the order ranked</caption>
      <thead>
        <tr>
          <th scope="col">item</th>
          <th scope="col">kind</th>
          <th scope="col">type</th>
          <th scope="col">tokens</th>
          <th scope="col">score</th>
        </tr>
      </thead>
      <tbody>
        {items.map((i) => (
          <tr key={`${i.kind}-${i.id}`}>
            <td>{i.kind === 'memory' ? <a href={at(`/memories/${i.id}`)}>{i.text}</a> : i.text}</td>
            <td>{i.kind}</td>
            <td>{i.type}</td>
            <td class="num">{i.tokens}</td>
            <td class="num">{i.score.toFixed(2)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
