/** A record's fields as a definition list (the memory and session pages); `children` adds rows that are more than text. */
import type { ComponentChildren } from 'preact';

export function Facts({ rows, children }: { rows: [string, string][]; children?: ComponentChildren }) {
  return (
    <dl class="facts">
      {rows.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
      {children}
    </dl>
  );
}
