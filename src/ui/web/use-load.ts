/** Loads what a page shows when its inputs change; a newer load (or leaving the page) cancels the older one. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  /** Ask again (after a change the page made). */
  reload: () => void;
}

export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, key: string): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const loader = useRef(load);
  loader.current = load;
  useEffect(() => {
    const ac = new AbortController();
    loader
      .current(ac.signal)
      .then((d) => {
        if (ac.signal.aborted) return;
        setData(d);
        setError(null);
      })
      .catch((err: Error) => {
        if (!ac.signal.aborted) setError(err.message);
      });
    return () => ac.abort();
  }, [key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, reload };
}
