/** A dream report as a readable diff: merged (texts → the one kept), superseded (old → new), archived, reinforced. */
import type { ComponentChildren } from 'preact';
import type { DreamReport, ReportMemory } from '../../../api/dream.js';
import { at } from '../base.js';

type Texts = Record<string, ReportMemory>;

/** A memory the report names: a link, and its text now (or that it is no longer stored). */
function Mem({ id, texts, text }: { id: string; texts: Texts; text?: string }) {
  const m = texts[id];
  const shown = text ?? (m?.exists ? m.content : undefined);
  return (
    <span class="mem-ref">
      <a href={at(`/memories/${id}`)}>{id}</a> {shown !== undefined ? <q>{shown}</q> : <span class="muted">(no longer stored)</span>}
    </span>
  );
}

function Part({ title, n, children }: { title: string; n: number; children: ComponentChildren }) {
  return (
    <section class="report-part" aria-label={title}>
      <h2>
        {title} <span class="muted">({n})</span>
      </h2>
      {n === 0 ? <p class="muted">none</p> : <ul class="changes">{children}</ul>}
    </section>
  );
}

export function ReportDiff({ report: r, texts }: { report: DreamReport; texts: Texts }) {
  return (
    <>
      <Part title="Merged" n={r.merges.length}>
        {r.merges.map((m) => (
          <li key={m.into} class="change merge">
            <ul class="from">
              {m.merged.map((id) => (
                <li key={id}>
                  <del>
                    <Mem id={id} texts={texts} />
                  </del>
                </li>
              ))}
            </ul>
            <div class="to">
              → <Mem id={m.into} texts={texts} text={m.text} />
            </div>
            <p class="reason">{m.reason}</p>
          </li>
        ))}
      </Part>
      <Part title="Superseded" n={r.supersessions.length}>
        {r.supersessions.map((s) => (
          <li key={s.id} class="change supersede">
            <del>
              <Mem id={s.id} texts={texts} />
            </del>{' '}
            →{' '}
            <ins>
              <Mem id={s.by} texts={texts} />
            </ins>
            <p class="reason">{s.reason}</p>
          </li>
        ))}
      </Part>
      <Part title="Archived" n={r.archives.length}>
        {r.archives.map((a) => (
          <li key={a.id} class="change archive">
            <del>
              <Mem id={a.id} texts={texts} />
            </del>
            <p class="reason">{a.reason}</p>
          </li>
        ))}
      </Part>
      <Part title="Reinforced" n={r.reinforcements.length}>
        {r.reinforcements.map((x) => (
          <li key={x.id} class="change reinforce">
            <Mem id={x.id} texts={texts} /> <span class="muted">seen again in {x.sessions} sessions</span>
          </li>
        ))}
      </Part>
      {r.masked.length > 0 && (
        <Part title="Secrets masked" n={r.masked.length}>
          {r.masked.map((x) => (
            <li key={x.id} class="change mask">
              <Mem id={x.id} texts={texts} /> {x.dropped && <span class="muted">(nothing left but the secret: archived)</span>}
            </li>
          ))}
        </Part>
      )}
    </>
  );
}
