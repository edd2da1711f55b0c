/** Past dreams, newest first (trigger, duration, what each changed), the one running now, and "Run a dream now". */
import { call } from '../api.js';
import { FollowDream, RunDream } from '../dreams/run.js';
import { ago, durationText } from '../format.js';
import { useListKeys } from '../list-keys.js';
import { ErrorLine } from '../pager.js';
import { useLoad } from '../use-load.js';
import { at } from '../base.js';

export function DreamsPage() {
  const r = useLoad((signal) => call('listDreams', {}, signal), 'dreams');
  const table = useListKeys<HTMLTableSectionElement>('a.dream-link');
  const running = r.data?.running;
  return (
    <section>
      <h1>Dreams</h1>
      <RunDream />
      <ErrorLine error={r.error} />
      {running && <FollowDream key={running.id} id={running.id} onEnd={r.reload} />}
      {r.data && r.data.dreams.length === 0 && <p class="muted">No dreams yet.</p>}
      {r.data && r.data.dreams.length > 0 && (
        <table class="list dreams">
          <thead>
            <tr>
              <th scope="col">dream</th>
              <th scope="col">started</th>
              <th scope="col">trigger</th>
              <th scope="col">took</th>
              <th scope="col">merged</th>
              <th scope="col">superseded</th>
              <th scope="col">archived</th>
            </tr>
          </thead>
          <tbody ref={table}>
            {r.data.dreams.map((d) => (
              <tr key={d.id} data-dream={d.id}>
                <td>
                  <a class="dream-link" href={at(`/dreams/${d.id}`)}>
                    {d.id}
                  </a>{' '}
                  {d.dryRun && <span class="badge mem-edited">dry run</span>} {d.error && <span class="badge state-bad">failed</span>}
                </td>
                <td title={d.startedAt}>{ago(d.startedAt)} ago</td>
                <td>{d.trigger}</td>
                <td class="num">{durationText(d.durationMs)}</td>
                <td class="num">{d.merged}</td>
                <td class="num">{d.superseded}</td>
                <td class="num">{d.archived}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
