import { EventEmitter } from 'node:events';
import type { Task, TaskEvent } from '../api/tasks.js';
import { now } from '../clock.js';

/** In-process bus of task events: the events stream, `wait`, follow and notifications listen here. */
export class TaskEvents {
  private readonly emitter = new EventEmitter();

  constructor() {
    // Every follower and waiter is a listener; hundreds at once are normal, not a leak.
    this.emitter.setMaxListeners(0);
  }

  emit(type: TaskEvent['type'], task: Task): void {
    const event: TaskEvent = { type, at: now().toISOString(), task };
    this.emitter.emit('event', event);
  }

  on(listener: (e: TaskEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
