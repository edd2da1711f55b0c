/** "first–last of total" with previous / next buttons, for a list read a page at a time. */
export function Pager({
  page,
  size,
  total,
  onPage,
  labels = ['← previous', 'next →'],
}: {
  page: number;
  size: number;
  total: number;
  onPage: (p: number) => void;
  labels?: readonly [string, string];
}) {
  if (total <= size && page === 0) return null;
  const first = page * size;
  return (
    <nav class="pager" aria-label="pages">
      <button type="button" disabled={page === 0} onClick={() => onPage(page - 1)}>
        {labels[0]}
      </button>
      <span>
        {total === 0 ? 0 : first + 1}–{Math.min(total, first + size)} of {total}
      </span>
      <button type="button" disabled={first + size >= total} onClick={() => onPage(page + 1)}>
        {labels[1]}
      </button>
    </nav>
  );
}

/** The error of a load or an action, read out when it appears. */
export function ErrorLine({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error}
    </p>
  );
}
