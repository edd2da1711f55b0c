import type { Schedules } from '../../workflows/schedules.js';
import type { Handlers } from '../http.js';

type ScheduleHandlers = Pick<Handlers, 'addSchedule' | 'listSchedules' | 'getSchedule' | 'pauseSchedule' | 'resumeSchedule' | 'removeSchedule'>;

export function scheduleHandlers(schedules: Schedules): ScheduleHandlers {
  return {
    addSchedule: async ({ body }) => ({ json: { schedule: await schedules.add(body) } }),
    listSchedules: async () => ({ json: { schedules: schedules.list() } }),
    getSchedule: async ({ params: { id } }) => ({ json: { schedule: schedules.get(id) } }),
    pauseSchedule: async ({ params: { id } }) => ({ json: { schedule: await schedules.setPaused(id, true) } }),
    resumeSchedule: async ({ params: { id } }) => ({ json: { schedule: await schedules.setPaused(id, false) } }),
    removeSchedule: async ({ params: { id } }) => {
      await schedules.remove(id);
      return { json: { ok: true } };
    },
  };
}
