/**
 * The second scenario of a comparison: a built-in run by the same worker as the current one (its
 * own request, so the current run and its cursor are left alone), kept until another is asked for.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import { engineClient } from '../engine-client';
import { usePlayground, type RunView } from '../store';

interface CompareRunState {
  id: string | null;
  run: RunView | null;
  failed: boolean;
}

const useCompareRun = create<CompareRunState>()(() => ({ id: null, run: null, failed: false }));

let token = 0;

async function runBuiltin(id: string, scenario: unknown): Promise<void> {
  const mine = ++token;
  useCompareRun.setState({ id, run: null, failed: false });
  try {
    const out = await engineClient.run(scenario);
    if (mine !== token) return;
    if (out.ok) {
      const { ok: _ok, ...run } = out;
      useCompareRun.setState({ run });
    } else useCompareRun.setState({ failed: true });
  } catch {
    if (mine === token) useCompareRun.setState({ failed: true });
  }
}

/** The run of built-in `id` (null while it runs, or when there is no such built-in). */
export function useCompareRunOf(id: string): { run: RunView | null; failed: boolean } {
  const builtin = usePlayground((s) => s.builtins.find((b) => b.id === id));
  const state = useCompareRun();
  useEffect(() => {
    if (builtin && useCompareRun.getState().id !== id) void runBuiltin(id, builtin.scenario);
  }, [id, builtin]);
  if (state.id !== id)
    return { run: null, failed: builtin === undefined && usePlayground.getState().builtins.length > 0 };
  return { run: state.run, failed: state.failed };
}

/** The preset pairs: a broken scenario and its fix, one click away. */
export const PRESETS = [
  { key: 'compare.preset.race', a: 'naive-get-del-race', b: 'naive-lua-del-safe' },
  { key: 'compare.preset.wait', a: 'failover-lost-lock', b: 'failover-wait-helps' },
  { key: 'compare.preset.fencing', a: 'gc-pause-lease-expiry', b: 'fencing-saves-gc-pause' },
] as const;
