import type { ThreadView } from '../../engine/trace/types';

/**
 * A thread's holds as the Threads table writes them: `myLock ×1`, and while a reply is on its way
 * (ThreadView.replying) the count Redis already keeps, `myLock ×1 → 2`, so the row shows the
 * same moment as the keyspace beside it. `—` when it holds nothing and expects nothing.
 */
export function holdsText(th: Pick<ThreadView, 'holds' | 'replying'>): string {
  const r = th.replying;
  const parts = Object.entries(th.holds)
    .filter(([, c]) => c > 0)
    .map(([lock, c]) => (r?.lock === lock ? `${lock} ×${c} → ${r.holds}` : `${lock} ×${c}`));
  if (r !== undefined && !(th.holds[r.lock] > 0)) parts.push(`${r.lock} → ×${r.holds}`);
  return parts.join(', ') || '—';
}
