/** Task groups: a name and how many of its tasks may run at once. */
import { z } from 'zod';

export const DEFAULT_GROUP = 'default';

export const GroupName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'group names are letters, digits, ".", "_" and "-" (at most 64), e.g. builds');

const Parallel = z.number().int().min(1).max(1024);

export const AddGroupRequest = z.object({ name: GroupName, parallel: Parallel.default(1) }).strict();
export const SetParallelRequest = z.object({ parallel: Parallel }).strict();

export const Group = z.object({
  name: z.string(),
  parallel: z.number(),
  running: z.number(),
  queued: z.number(),
});
export type Group = z.infer<typeof Group>;

export const GroupResponse = z.object({ group: Group });
export const GroupListResponse = z.object({ groups: z.array(Group) });
/** pause/resume of a group: the tasks it acted on. */
export const GroupTasksResponse = z.object({ ids: z.array(z.string()) });
