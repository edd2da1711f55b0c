/**
 * Loads what a page shows when its inputs change; a newer load (or leaving the page) cancels the older one.
 * Data loaded for another key is never returned: moving from one memory to the next must not show the
 * first one's content beside the second one's history while the load is under way. Lists whose filter
 * changed may keep showing the previous result until the new one arrives (`keepPrevious`), as they would flicker otherwise.
 */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  /** Ask again (after a change the page made). */
  reload: () => void;
}

export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, key: string, keepPrevious = false): Loaded<T> {
  const [loaded, setLoaded] = useState<{ key: string; data: T } | null>(null);
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
        setLoaded({ key, data: d });
        setError(null);
      })
      .catch((err: Error) => {
        if (!ac.signal.aborted) setError(err.message);
      });
    return () => ac.abort();
  }, [key, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data: loaded && (keepPrevious || loaded.key === key) ? loaded.data : null, error, reload };
}
