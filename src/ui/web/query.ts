/** A page's filters in its URL (linkable views): only what differs from the defaults is written. */
export function hrefWith(
  path: string,
  values: Record<string, string | number | boolean | undefined>,
  defaults: Record<string, string | number | boolean> = {},
): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || v === '' || v === false || v === defaults[k]) continue;
    qs.set(k, v === true ? '1' : String(v));
  }
  return qs.size > 0 ? `${path}?${qs}` : path;
}

export const pageOf = (v: string | undefined): number => Math.max(0, Number(v ?? 0) || 0);
