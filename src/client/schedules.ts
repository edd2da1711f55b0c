/** Schedule calls of the typed client (kept beside api-client.ts, which holds the task calls). */
import type { z } from 'zod';
import type { AddScheduleRequest, ScheduleView } from '../api/schedules.js';
import type { ApiClient } from './api-client.js';

const ref = (idOrName: string) => ({ params: { id: idOrName } });

export async function addSchedule(c: ApiClient, req: z.input<typeof AddScheduleRequest>): Promise<ScheduleView> {
  return (await c.call('addSchedule', { body: req })).schedule;
}

export async function listSchedules(c: ApiClient): Promise<ScheduleView[]> {
  return (await c.call('listSchedules', {})).schedules;
}

export async function getSchedule(c: ApiClient, idOrName: string): Promise<ScheduleView> {
  return (await c.call('getSchedule', ref(idOrName))).schedule;
}

export async function pauseSchedule(c: ApiClient, idOrName: string, paused: boolean): Promise<ScheduleView> {
  return (await c.call(paused ? 'pauseSchedule' : 'resumeSchedule', ref(idOrName))).schedule;
}

export async function removeSchedule(c: ApiClient, idOrName: string): Promise<void> {
  await c.call('removeSchedule', ref(idOrName));
}
