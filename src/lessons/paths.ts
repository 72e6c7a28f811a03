/**
 * Paths through the course for a class of 25, 50 or 90 minutes: which steps of which lessons, in
 * order. Each is one link (`#lesson=<first>&step=<n>&path=<id>`); with a path, Next and PageDown go
 * to the path's next step, across lessons. Step numbers are 1-based, as in the links.
 */
import type { Bilingual } from './types';

export interface PathStop {
  lesson: string;
  steps: number[];
}

export interface CoursePath {
  id: '25' | '50' | '90';
  title: Bilingual;
  stops: PathStop[];
}

const all = (lesson: string, n: number): PathStop => ({
  lesson,
  steps: Array.from({ length: n }, (_, i) => i + 1),
});

export const COURSE_PATHS: readonly CoursePath[] = [
  {
    id: '25',
    title: { en: '25 minutes: the argument in one sitting', zh: '25 分钟：一口气讲完主线' },
    stops: [
      { lesson: 'why-lock', steps: [1, 2, 3] },
      { lesson: 'expiry', steps: [2, 4, 5] },
      // each question after the step that sets it up: the 10 s lease and the 14 s of work, the
      // stale GET, the tokens (the teacher notes ask the room about exactly those)
      { lesson: 'lease-too-short', steps: [1, 2, 3] },
      { lesson: 'atomic-release', steps: [2, 3, 5] },
      { lesson: 'watchdog', steps: [1, 6] },
      { lesson: 'pauses-fencing', steps: [2, 4, 5] },
      { lesson: 'replication', steps: [6] },
      { lesson: 'choosing-a-lock', steps: [7] },
    ],
  },
  {
    id: '50',
    title: { en: '50 minutes: one class', zh: '50 分钟：一堂课' },
    stops: [
      { lesson: 'why-lock', steps: [1, 2, 3] },
      { lesson: 'setnx', steps: [1, 2, 3, 4] },
      { lesson: 'expiry', steps: [2, 4, 5] },
      { lesson: 'lease-too-short', steps: [1, 2, 3] },
      { lesson: 'atomic-release', steps: [2, 3, 5] },
      { lesson: 'lock-script', steps: [1, 2, 3, 4, 5] },
      { lesson: 'reentrancy', steps: [2, 4] },
      { lesson: 'waiting', steps: [1, 2, 3] },
      { lesson: 'unlock', steps: [3, 4] },
      { lesson: 'watchdog', steps: [1, 2, 5, 6] },
      { lesson: 'pauses-fencing', steps: [1, 2, 4, 5] },
      { lesson: 'replication', steps: [4, 5, 6] },
      { lesson: 'choosing-a-lock', steps: [7] },
    ],
  },
  {
    id: '90',
    title: {
      en: '90 minutes: the main line from the first lock to fencing, then a failover, the capstone and the choice of a lock',
      zh: '90 分钟：从第一把锁到防护令牌的主线，再加一次主从切换、综合练习，以及如何选择一把锁',
    },
    stops: [
      all('why-lock', 4),
      all('setnx', 4),
      all('expiry', 5),
      all('lease-too-short', 4),
      all('atomic-release', 7),
      all('renewal-task', 4),
      all('lock-script', 6),
      all('reentrancy', 6),
      all('waiting', 7),
      all('unlock', 5),
      all('watchdog', 7),
      all('pauses-fencing', 5),
      { lesson: 'replication', steps: [6] },
      all('capstone', 3),
      { lesson: 'choosing-a-lock', steps: [7] },
    ],
  },
];

export function coursePath(id: string | undefined): CoursePath | undefined {
  return COURSE_PATHS.find((p) => p.id === id);
}

/** The path's step after (+1) or before (−1) `step` (0-based) of `lesson`; null at either end. */
export function pathNeighbour(
  path: CoursePath,
  lesson: string,
  step: number,
  dir: 1 | -1,
): { lesson: string; step: number } | null {
  const flat = path.stops.flatMap((s) => s.steps.map((n) => ({ lesson: s.lesson, step: n - 1 })));
  let i = flat.findIndex((x) => x.lesson === lesson && x.step === step);
  if (i < 0) {
    // a step off the path: go on from the path's next step of this lesson (or the next lesson's)
    const after = flat.findIndex((x) => x.lesson === lesson && x.step > step);
    if (dir > 0 && after >= 0) return flat[after];
    i = flat.map((x) => x.lesson).lastIndexOf(lesson);
    if (i < 0) return null;
  }
  return flat[i + dir] ?? null;
}

/** Nominal minutes of a path: each lesson's minutes in proportion to the steps it takes. */
export function pathMinutes(
  path: CoursePath,
  lessons: { id: string; minutes: number; steps: number }[],
): number {
  let m = 0;
  for (const s of path.stops) {
    const l = lessons.find((x) => x.id === s.lesson);
    if (l) m += (l.minutes * s.steps.length) / l.steps;
  }
  return Math.round(m);
}
