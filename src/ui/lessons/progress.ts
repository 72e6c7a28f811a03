import { safeStorage } from '../storage';

/** Lesson progress in localStorage: the furthest step seen, and whether the lesson was finished. */
export interface Progress {
  /** 0-based, the furthest step opened */
  seen: number;
  done: boolean;
}

const KEY = 'lockscope.lessons';

export function readProgress(): Record<string, Progress> {
  try {
    const raw = safeStorage()?.getItem(KEY);
    const parsed = raw ? (JSON.parse(raw) as unknown) : null;
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    const out: Record<string, Progress> = {};
    for (const [id, p] of Object.entries(parsed as Record<string, unknown>)) {
      const q = p as Partial<Progress> | null;
      if (q && typeof q.seen === 'number') out[id] = { seen: q.seen, done: q.done === true };
    }
    return out;
  } catch {
    // A damaged record is forgotten rather than breaking the index.
    return {};
  }
}

export function recordStep(id: string, step: number, total: number): Record<string, Progress> {
  const all = readProgress();
  const old = all[id] ?? { seen: -1, done: false };
  all[id] = { seen: Math.max(old.seen, step), done: old.done || step >= total - 1 };
  try {
    safeStorage()?.setItem(KEY, JSON.stringify(all));
  } catch {
    // Not persisted: the lesson still plays.
  }
  return all;
}
