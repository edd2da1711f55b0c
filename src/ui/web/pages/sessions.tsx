/** Placeholder: the Sessions pages come next (they read the same API as `nightshift`). */
export function SessionsPage() {
  return (
    <section>
      <h1>Sessions</h1>
      <p class="muted" data-placeholder="sessions">
        Not yet in the dashboard.
      </p>
    </section>
  );
}
