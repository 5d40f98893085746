import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, api } from './api.js';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  reload(): void;
}

/** GETs `path` (none while it is null), again when it changes or on reload(). */
export function useApi<T>(path: string | null): Loaded<T> {
  const [state, setState] = useState<{ path: string | null; data?: T; error?: ApiError }>({ path });
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (path === null) return;
    let live = true;
    api.get<T>(path).then(
      (data) => live && setState({ path, data }),
      (error: unknown) =>
        live && setState({ path, error: error instanceof ApiError ? error : new ApiError(0, String(error)) }),
    );
    return () => {
      live = false;
    };
  }, [path, tick]);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  // A result for an earlier path is not shown for the new one.
  const current = state.path === path;
  return { data: current ? state.data : undefined, error: current ? state.error : undefined, reload };
}
