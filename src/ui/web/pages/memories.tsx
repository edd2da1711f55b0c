/** Placeholder: the Memories pages come next (they read the same API as `nightshift`). */
export function MemoriesPage() {
  return (
    <section>
      <h1>Memories</h1>
      <p class="muted" data-placeholder="memories">
        Not yet in the dashboard.
      </p>
    </section>
  );
}
