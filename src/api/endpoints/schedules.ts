import { AddScheduleRequest, ScheduleListResponse, ScheduleResponse } from '../schedules.js';
import { OkResponse } from '../tasks.js';
import { json, scheduleRef, type EndpointSpec } from '../endpoint.js';

export const SCHEDULES_ENDPOINTS = {
  addSchedule: {
    doc: 'add a schedule: a cron expression (5 fields, or 6 with seconds), time zone, overlap policy, catch-up, and the task it starts',
    body: AddScheduleRequest.describe('schedule request'),
    reply: json(ScheduleResponse, 201),
  },
  listSchedules: { doc: 'every schedule with its next firing times', reply: json(ScheduleListResponse) },
  getSchedule: {
    doc: 'one schedule (id or name): next firing times, latest firings and their tasks',
    params: scheduleRef,
    reply: json(ScheduleResponse),
  },
  pauseSchedule: { doc: 'stop a schedule firing (kept)', params: scheduleRef, reply: json(ScheduleResponse) },
  resumeSchedule: {
    doc: 'let a paused schedule fire again (what it missed while paused is not caught up)',
    params: scheduleRef,
    reply: json(ScheduleResponse),
  },
  removeSchedule: {
    doc: 'remove a schedule (the tasks it started stay)',
    params: scheduleRef,
    reply: json(OkResponse),
  },
} as const satisfies Record<string, EndpointSpec>;
