import { z } from 'zod';

/** `POST /v1/ui`: the dashboard is on; where it is, and a one-time login link. */
export const UiOnResponse = z.object({
  enabled: z.literal(true),
  url: z.string(),
  /** Opens a session in the browser; works once, until `expires`. */
  loginUrl: z.string(),
  expires: z.string(),
});
export type UiOnResponse = z.infer<typeof UiOnResponse>;

export const UiOffResponse = z.object({ enabled: z.literal(false) });

/** One event of `GET /v1/tasks/:id/follow/sse` (server-sent events). */
export const OutputEvent = z.object({
  /** Byte offset of the first byte of `text`; the event's id is the offset after it (where to resume). */
  offset: z.number(),
  text: z.string(),
});
export type OutputEvent = z.infer<typeof OutputEvent>;
