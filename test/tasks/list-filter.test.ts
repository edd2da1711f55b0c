import { describe, expect, it } from 'vitest';
import { countTasks, selectTasks } from '../../src/tasks/list-filter.js';
import { exited, finished, queued, running } from '../helpers/task-fixtures.js';

const tasks = [
  exited('1', 0, { labels: { ci: '1' } }),
  exited('2', 2),
  queued('3', { group: 'gpu' }),
  running('4', { attention: { kind: 'prompt', since: 'x', tail: 'y/n?' }, labels: { ci: '1' } }),
  finished('5', { kind: 'lost', reason: 'x' }),
];
const ids = (f: Parameters<typeof selectTasks>[1]) => selectTasks(tasks, f).tasks.map((t) => t.id);

describe('which tasks a list shows', () => {
  it('shows unfinished tasks unless all are asked for; a status filter reaches finished ones', () => {
    expect(ids({ all: false })).toEqual(['3', '4']);
    expect(ids({ all: true })).toEqual(['1', '2', '3', '4', '5']);
    expect(ids({ all: false, status: 'exited' })).toEqual(['1', '2']);
    expect(ids({ all: false, status: 'finished' })).toEqual(['1', '2', '5']);
  });

  it('narrows by group, labels and attention, and pages newest first with the total of all matches', () => {
    expect(ids({ all: true, group: 'gpu' })).toEqual(['3']);
    expect(ids({ all: true, labels: { ci: '1' } })).toEqual(['1', '4']);
    expect(ids({ all: true, attention: true })).toEqual(['4']);
    expect(selectTasks(tasks, { all: true, desc: true, offset: 1, limit: 2 })).toMatchObject({ total: 5, tasks: [{ id: '4' }, { id: '3' }] });
  });

  it('counts each status and the running tasks that need attention', () => {
    expect(countTasks(tasks)).toMatchObject({ exited: 2, queued: 1, running: 1, lost: 1, killed: 0, attention: 1 });
  });
});
