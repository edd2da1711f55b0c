import type { Group } from '../../api/groups.js';
import { AppError } from '../../errors.js';
import type { GroupStore } from '../../tasks/groups.js';
import type { TaskManager } from '../../tasks/manager.js';
import type { Handlers } from '../http.js';

type GroupHandlers = Pick<Handlers, 'listGroups' | 'addGroup' | 'setGroupParallel' | 'removeGroup' | 'pauseGroup' | 'resumeGroup'>;

export function groupHandlers(tasks: TaskManager, groups: GroupStore): GroupHandlers {
  const describe = async (name: string): Promise<Group> => {
    const active = await tasks.list({ all: false, group: name });
    return {
      name,
      parallel: groups.limit(name),
      running: active.filter((t) => t.state === 'running').length,
      queued: active.filter((t) => t.state === 'queued').length,
    };
  };
  /** Pauses or resumes each running task of the group; the ids it acted on. */
  const each = async (name: string, act: (id: string) => Promise<unknown>): Promise<string[]> => {
    groups.check(name);
    const ids = (await tasks.list({ all: false, group: name, status: 'running' })).map((t) => t.id);
    for (const id of ids) await act(id);
    return ids;
  };
  return {
    listGroups: async () => ({ json: { groups: await Promise.all(groups.list().map((g) => describe(g.name))) } }),
    addGroup: async ({ body }) => {
      await groups.add(body.name, body.parallel);
      return { json: { group: await describe(body.name) } };
    },
    setGroupParallel: async ({ params: { name }, body }) => {
      await groups.setParallel(name, body.parallel);
      // A higher limit starts queued tasks now.
      await tasks.schedule();
      return { json: { group: await describe(name) } };
    },
    removeGroup: async ({ params: { name } }) => {
      groups.check(name);
      const g = await describe(name);
      if (g.running + g.queued > 0)
        throw new AppError('conflict', `group ${name} has ${g.running} running and ${g.queued} queued tasks; wait for them or kill them first`);
      await groups.remove(name);
      return { json: { ok: true } };
    },
    pauseGroup: async ({ params: { name } }) => ({ json: { ids: await each(name, (id) => tasks.pause(id)) } }),
    resumeGroup: async ({ params: { name } }) => ({ json: { ids: await each(name, (id) => tasks.resume(id)) } }),
  };
}
