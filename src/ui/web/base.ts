/**
 * The dashboard's private path prefix: every page, file and API call of the app is under it (it is
 * the session cookie's Path, see src/ui/dashboard.ts). The bundle finds it from its own address,
 * `<prefix>/assets/app-<hash>.js`, so nothing in the page has to name it.
 */
export const BASE = new URL('..', import.meta.url).pathname.replace(/\/+$/, '');

/** An app path (`/tasks/3`) as the address the browser uses. */
export const at = (path: string): string => `${BASE}${path}`;
