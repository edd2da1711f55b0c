/** Task events as they happen (`GET /v1/events`, the stream `nightshift` clients use), for pages that show tasks. */
import { useEffect, useRef } from 'preact/hooks';
import type { TaskEvent } from '../../api/tasks.js';
import { streamLines } from './api.js';

const RETRY_MS = 2000;

/** Calls `onEvent` for each event while the component is shown; a dropped stream is opened again. */
export function useTaskEvents(onEvent: (e: TaskEvent) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    const ac = new AbortController();
    let timer: number | undefined;
    const open = () => {
      streamLines('events', {}, (line) => handler.current(JSON.parse(line) as TaskEvent), ac.signal)
        .catch(() => undefined)
        .finally(() => {
          if (!ac.signal.aborted) timer = window.setTimeout(open, RETRY_MS);
        });
    };
    open();
    return () => {
      ac.abort();
      window.clearTimeout(timer);
    };
  }, []);
}
