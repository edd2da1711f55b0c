/** A session's digest: what was asked, files changed, commands run, errors, commits, how it ended and what was left open. */
import type { ComponentChildren } from 'preact';
import type { SessionDigest } from '../../../api/digest.js';

function Part({ title, n, children }: { title: string; n: number; children: ComponentChildren }) {
  if (n === 0) return null;
  return (
    <section class="digest-part" aria-label={title}>
      <h3>{title}</h3>
      <ul>{children}</ul>
    </section>
  );
}

export function Digest({ digest: d }: { digest: SessionDigest }) {
  return (
    <div class="digest">
      {d.outcome.length > 0 && (
        <p class="outcome">
          <strong>Outcome:</strong> {d.outcome.join(', ')}
          {d.interrupted && ' (the person interrupted the agent last)'}
        </p>
      )}
      <Part title="Asked" n={d.asked.length}>
        {d.asked.map((a) => (
          <li key={a.messageId}>{a.text}</li>
        ))}
      </Part>
      <Part title="Files changed" n={d.files.length}>
        {d.files.map((f) => (
          <li key={f.path}>
            <code>{f.path}</code> <span class="muted">({f.edits} edits)</span>
          </li>
        ))}
      </Part>
      <Part title="Commands" n={d.commands.length}>
        {d.commands.map((c) => (
          <li key={c.command}>
            <code>{c.command}</code> <span class="muted">{c.kind}</span> — {c.runs} runs
            {c.failures > 0 && `, ${c.failures} failed`}
            {c.ok !== undefined && (
              <span class={c.ok ? 'state-ok' : 'state-bad'}> (last {c.ok ? 'passed' : `failed${c.exitCode !== undefined ? ` with ${c.exitCode}` : ''}`})</span>
            )}
          </li>
        ))}
      </Part>
      <Part title="Errors" n={d.errors.length}>
        {d.errors.map((e) => (
          <li key={e.messageId}>
            <code>{e.command}</code> {e.count > 1 && `(${e.count}×)`} {e.fixed ? <span class="state-ok">fixed</span> : <span class="state-bad">not fixed</span>}
            <pre class="snippet">{e.text}</pre>
          </li>
        ))}
      </Part>
      <Part title="Commits" n={d.commits.length}>
        {d.commits.map((c) => (
          <li key={c.messageId}>{c.message ?? <span class="muted">(no message)</span>}</li>
        ))}
      </Part>
      <Part title="Pushes" n={d.pushes.length}>
        {d.pushes.map((p) => (
          <li key={p.messageId}>
            <code>{p.command}</code>
          </li>
        ))}
      </Part>
      <Part title="Left open" n={d.open.length}>
        {d.open.map((o) => (
          <li key={`${o.source}-${o.messageId}`}>
            {o.text} <span class="muted">({o.source})</span>
          </li>
        ))}
      </Part>
    </div>
  );
}
