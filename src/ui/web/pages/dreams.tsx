/** Placeholder: the Dreams pages come next (they read the same API as `nightshift`). */
export function DreamsPage() {
  return (
    <section>
      <h1>Dreams</h1>
      <p class="muted" data-placeholder="dreams">
        Not yet in the dashboard.
      </p>
    </section>
  );
}
