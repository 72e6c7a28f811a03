import type { StoreApi, UseBoundStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';

/**
 * Several fields of one store in one subscription: `const { lang, run } = usePick(usePlayground,
 * 'lang', 'run')`. The component re-renders when one of them changes (compared one by one, as
 * separate `useStore((s) => s.x)` calls would), not for the rest of the store.
 */
export function usePick<S extends object, K extends keyof S>(
  store: UseBoundStore<StoreApi<S>>,
  ...keys: K[]
): Pick<S, K> {
  return store(
    useShallow((s: S) => {
      const out = {} as Pick<S, K>;
      for (const k of keys) out[k] = s[k];
      return out;
    }),
  );
}
