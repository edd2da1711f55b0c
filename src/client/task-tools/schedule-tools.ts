/**
 * The schedule tools, beside the task tools and of the same shape (TaskTool), for the adapters that
 * offer them (the MCP server). A schedule's tasks get the daemon's environment: the caller's own is
 * not stored with the schedule.
 */
import { resolve } from 'node:path';
import { z } from 'zod';
import { OVERLAP, type ScheduleView } from '../../api/schedules.js';
import { commandLine } from '../format.js';
import { addSchedule, listSchedules, removeSchedule } from '../schedules.js';
import { RunInput } from './schemas.js';
import { defineTool as define } from './define.js';
import type { TaskTool } from './tools.js';

export interface ScheduleToolNames {
  add: string;
  list: string;
  remove: string;
}

const AddInput = {
  cron: z.string().min(1).describe('cron expression: 5 fields (minute hour day month weekday, e.g. "0 3 * * *") or 6 with seconds first'),
  command: RunInput.command,
  cwd: RunInput.cwd,
  name: RunInput.name.describe('a name for the schedule (its tasks get it too)'),
  tz: z.string().min(1).optional().describe('IANA time zone, e.g. Europe/Berlin (default: the daemon’s local time)'),
  overlap: z.enum(OVERLAP).optional().describe('when the previous firing’s task still runs: skip (default), allow, or queue (one waits)'),
  catch_up: z.boolean().optional().describe('run a firing missed while the daemon was down, once, when it starts'),
};
const RemoveInput = { schedule: z.string().min(1).max(200).describe('schedule id (s3) or name') };

const ScheduleSummary = z.object({
  schedule_id: z.string(),
  name: z.string().nullable(),
  cron: z.string(),
  paused: z.boolean(),
  next: z.array(z.string()),
  last_fired_at: z.string().nullable(),
  last_task_id: z.string().optional(),
  command: z.array(z.string()),
});

function summary(s: ScheduleView): z.infer<typeof ScheduleSummary> {
  const last = s.firings.findLast((f) => f.taskId !== undefined)?.taskId;
  return {
    schedule_id: s.id,
    name: s.name,
    cron: s.cron + (s.tz ? ` (${s.tz})` : ''),
    paused: s.paused,
    next: s.next.slice(0, 3),
    last_fired_at: s.lastFiredAt,
    ...(last !== undefined && { last_task_id: last }),
    command: s.command,
  };
}

export function scheduleTools(n: ScheduleToolNames): TaskTool[] {
  return [
    define({
      name: n.add,
      title: 'Schedule a recurring task',
      description:
        'Run a command as a nightshift background task each time a cron expression fires (the daemon keeps the schedule across restarts). ' +
        `Each firing is a task like any other (read it with the task tools). Remove it with ${n.remove}; list with ${n.list}.`,
      input: AddInput,
      output: ScheduleSummary.shape,
      brief: (i) => `${i.cron}: ${typeof i.command === 'string' ? i.command : commandLine(i.command)}`,
      run: async (i, host) => {
        const command = typeof i.command === 'string' ? [i.command] : i.command;
        const s = await host.call((c) =>
          addSchedule(c, {
            cron: i.cron,
            command,
            cwd: i.cwd ? resolve(host.cwd, i.cwd) : host.cwd,
            catchUp: i.catch_up ?? false,
            ...(i.name !== undefined && { name: i.name }),
            ...(i.tz !== undefined && { tz: i.tz }),
            ...(i.overlap !== undefined && { overlap: i.overlap }),
          }),
        );
        return { text: `added schedule ${s.id}${s.name ? ` (${s.name})` : ''}: ${s.cron}; next at ${s.next[0] ?? '-'}`, structured: summary(s) };
      },
    }),
    define({
      name: n.list,
      title: 'List schedules',
      description: 'List nightshift schedules: cron expression, paused or not, next firing times, last firing and its task.',
      input: {},
      output: { schedules: z.array(ScheduleSummary) },
      brief: () => 'all',
      run: async (_i, host) => {
        const list = await host.call((c) => listSchedules(c), true);
        const rows = list.map((s) => `${s.id}\t${s.name ?? '-'}\t${s.cron}\t${s.paused ? 'paused' : `next ${s.next[0] ?? '-'}`}\t${commandLine(s.command)}`);
        return { text: list.length ? `id\tname\tcron\tstate\tcommand\n${rows.join('\n')}` : 'no schedules', structured: { schedules: list.map(summary) } };
      },
    }),
    define({
      name: n.remove,
      title: 'Remove a schedule',
      description: 'Remove a schedule by id or name; the tasks it started stay.',
      input: RemoveInput,
      output: { removed: z.string() },
      brief: (i) => i.schedule,
      run: async (i, host) => {
        await host.call((c) => removeSchedule(c, i.schedule));
        return { text: `removed schedule ${i.schedule}`, structured: { removed: i.schedule } };
      },
    }),
  ];
}
