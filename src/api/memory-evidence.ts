import { z } from 'zod';

/**
 * What a memory rests on in its project's repository, kept on its record so a change there can be
 * noticed: a file or directory it names, a package.json script, a config key (a port is one), a
 * dependency and its version, as they were when it was recorded. `path` is always the file the thing lives in,
 * relative to the project root; `blob` is that file's git blob id then (computed the way git does
 * when the project is not a repository), `commit` the HEAD it was recorded at.
 */
export const Evidence = z.object({
  kind: z.enum(['file', 'dir', 'script', 'key', 'port', 'dependency']),
  path: z.string().min(1),
  /** A config key as a dotted path (`server.port`); a script is the key `scripts.NAME` of its package.json. */
  key: z.string().optional(),
  /** A dependency's name as its manifest spells it. */
  dependency: z.string().optional(),
  /** The key's value, the script's command or the dependency's version when recorded. */
  value: z.string().optional(),
  blob: z.string().optional(),
  commit: z.string().optional(),
  /** When it was recorded. */
  at: z.string(),
  /** It was gone when checked and the person restored the memory anyway: no longer checked. */
  gone: z.boolean().optional(),
});
export type Evidence = z.infer<typeof Evidence>;

/** What it rests on changed since it was said: recalled lower and shown marked until it is said or confirmed again. */
export const Reverify = z.object({ at: z.string(), reason: z.string() });
export type Reverify = z.infer<typeof Reverify>;
