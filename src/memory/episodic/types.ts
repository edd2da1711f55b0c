/** An episode: one thing said or done in a session, as the episodic index keeps it. */
import { z } from 'zod';

export const Episode = z.object({
  sessionId: z.string(),
  messageId: z.string(),
  project: z.string().nullable(),
  role: z.string(),
  kind: z.string(),
  speaker: z.string().optional(),
  text: z.string(),
  at: z.string().optional(),
});
export type Episode = z.infer<typeof Episode>;
