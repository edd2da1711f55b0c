/**
 * "Run a dream now": `POST /v1/dreams/progress` streams a line per phase as it ends, then the report;
 * the page then opens the new report.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import type { DreamProgressLine } from '../../../api/dream.js';
import { streamLines } from '../api.js';
import { ErrorLine } from '../pager.js';
import { at } from '../base.js';

export function RunDream() {
  const { route } = useLocation();
  const [dryRun, setDryRun] = useState(false);
  const [phases, setPhases] = useState<{ phase: string; detail: string }[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const ac = useRef<AbortController | null>(null);
  useEffect(() => () => ac.current?.abort(), []);
  const running = phases !== null && error === null;

  const run = () => {
    const abort = new AbortController();
    ac.current = abort;
    setPhases([]);
    setError(null);
    let report: string | null = null;
    streamLines(
      'dreamProgress',
      { body: { dryRun } },
      (text) => {
        const line = JSON.parse(text) as DreamProgressLine;
        if ('phase' in line) setPhases((p) => [...(p ?? []), line]);
        else if ('report' in line) report = line.report.id;
        else setError(line.error.message);
      },
      abort.signal,
    )
      .then(() => {
        if (report) route(at(`/dreams/${report}`));
        else setError((e) => e ?? 'the daemon ended the dream stream without a report (see `nightshift dream log`)');
      })
      .catch((err: Error) => {
        if (!abort.signal.aborted) setError(err.message);
      });
  };

  return (
    <form
      class="run-dream"
      onSubmit={(e) => {
        e.preventDefault();
        if (!running) run();
      }}
    >
      <div class="controls">
        <label>
          <input type="checkbox" name="dryRun" checked={dryRun} disabled={running} onChange={(e) => setDryRun(e.currentTarget.checked)} /> dry run (change
          nothing)
        </label>
        <button type="submit" disabled={running}>
          {running ? 'Dreaming…' : 'Run a dream now'}
        </button>
      </div>
      <ErrorLine error={error} />
      {phases && phases.length > 0 && (
        <ol class="phases" aria-live="polite">
          {phases.map((p) => (
            <li key={p.phase}>
              <strong>{p.phase}</strong> {p.detail}
            </li>
          ))}
        </ol>
      )}
    </form>
  );
}

/** A dream that runs now (started elsewhere): its phases as they end (`GET /v1/dreams/:id/follow`), then `onEnd`. */
export function FollowDream({ id, onEnd }: { id: string; onEnd: () => void }) {
  const [phases, setPhases] = useState<string[]>([]);
  const end = useRef(onEnd);
  end.current = onEnd;
  useEffect(() => {
    const abort = new AbortController();
    streamLines(
      'followDream',
      { params: { id } },
      (text) => {
        const line = JSON.parse(text) as DreamProgressLine;
        if ('phase' in line) setPhases((p) => [...p, line.phase]);
      },
      abort.signal,
    )
      .then(() => end.current())
      .catch(() => undefined);
    return () => abort.abort();
  }, [id]);
  return (
    <p class="banner-inline" role="status">
      A dream is running: {phases.join(', ') || 'starting'}
    </p>
  );
}
