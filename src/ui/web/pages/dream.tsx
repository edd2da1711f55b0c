/** One dream's report (`GET /v1/dreams/:id?expand=1`): what ran, how long each phase took, and what changed, as a diff. */
import { useRoute } from 'preact-iso';
import type { DreamReport } from '../../../api/dream.js';
import { call } from '../api.js';
import { ReportDiff } from '../dreams/report.js';
import { durationText } from '../format.js';
import { ErrorLine } from '../pager.js';
import { useLoad } from '../use-load.js';
import { at } from '../base.js';

export function DreamPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const r = useLoad((signal) => call('getDream', { params: { id }, query: { expand: '1' } }, signal), id);
  return (
    <section class="dream">
      <p>
        <a href={at('/dreams')}>← Dreams</a>
      </p>
      <ErrorLine error={r.error} />
      {r.data && (
        <>
          <ReportHead report={r.data.report} />
          <ReportDiff report={r.data.report} texts={r.data.memories ?? {}} />
        </>
      )}
    </section>
  );
}

function ReportHead({ report: r }: { report: DreamReport }) {
  const p = r.phases;
  return (
    <header>
      <h1>
        Dream <code>{r.id}</code> {r.dryRun && <span class="badge mem-edited">dry run: nothing was changed</span>}
      </h1>
      <p>
        {r.trigger === 'manual' ? 'Run by hand' : 'Scheduled'}, started {r.startedAt}, took {durationText(r.durationMs)}.
        {r.tokens && ` Model tokens: ${r.tokens.input} in, ${r.tokens.output} out (budget ${r.tokens.budget}).`}
      </p>
      {r.error && <p class="error">Did not complete: {r.error}</p>}
      <table class="list phases">
        <caption>Phases</caption>
        <tbody>
          <tr>
            <th scope="row">orient</th>
            <td>{durationText(p.orient.ms)}</td>
            <td>
              {p.orient.memories} memories in {p.orient.namespaces} namespaces, {p.orient.sessions} sessions since the last dream
            </td>
          </tr>
          <tr>
            <th scope="row">gather</th>
            <td>{durationText(p.gather.ms)}</td>
            <td>
              {p.gather.reinforced} reinforced, {p.gather.proposed} proposed
            </td>
          </tr>
          <tr>
            <th scope="row">consolidate</th>
            <td>{durationText(p.consolidate.ms)}</td>
            <td>
              {p.consolidate.merged} merged, {p.consolidate.superseded} superseded, {p.consolidate.secretsMasked} secrets masked
              {p.consolidate.modelBatches > 0 && `, ${p.consolidate.modelBatches} model batches`}
            </td>
          </tr>
          <tr>
            <th scope="row">prune</th>
            <td>{durationText(p.prune.ms)}</td>
            <td>{p.prune.archived} archived</td>
          </tr>
        </tbody>
      </table>
    </header>
  );
}
