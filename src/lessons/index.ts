/**
 * The course, in order. Each lesson is its own module so the page can load one at a time with
 * `await entry.load()`; the CLI and the tests load them all.
 */
import { resolveLessonRefs } from './refs';
import type { Lesson } from './types';

export type { Lesson } from './types';

export interface LessonEntry {
  id: string;
  load(): Promise<Lesson>;
}

/** a lesson's number in the course, as `{lesson:<id>}` references are written out */
const numberOf = (id: string): number | undefined => {
  const i = lessonCatalog.findIndex((e) => e.id === id);
  return i < 0 ? undefined : i + 1;
};

const entry = (id: string, load: () => Promise<{ default: Lesson }>): LessonEntry => ({
  id,
  load: async () => resolveLessonRefs((await load()).default, numberOf),
});

export const lessonCatalog: readonly LessonEntry[] = [
  entry('why-lock', () => import('./content/01_why_lock')),
  entry('setnx', () => import('./content/02_setnx')),
  entry('expiry', () => import('./content/03_expiry')),
  entry('lease-too-short', () => import('./content/04_lease_too_short')),
  entry('atomic-release', () => import('./content/05_atomic_release')),
  entry('multi-watch', () => import('./content/18_multi_watch')),
  entry('renewal-task', () => import('./content/06_renewal_task')),
  entry('lock-script', () => import('./content/07_lock_script')),
  entry('reentrancy', () => import('./content/08_reentrancy')),
  entry('waiting', () => import('./content/09_waiting')),
  entry('unlock', () => import('./content/10_unlock')),
  entry('watchdog', () => import('./content/11_watchdog')),
  entry('waiting-fails', () => import('./content/20_waiting_fails')),
  entry('watchdog-cost', () => import('./content/21_watchdog_cost')),
  entry('pauses-fencing', () => import('./content/12_pauses_fencing')),
  entry('partition-liveness', () => import('./content/18_partition_liveness')),
  entry('cluster', () => import('./content/13_cluster')),
  entry('crossslot', () => import('./content/19_crossslot')),
  entry('replication', () => import('./content/14_replication')),
  entry('multilock-redlock', () => import('./content/15_multilock_redlock')),
  entry('lock-family', () => import('./content/16_family')),
  entry('production', () => import('./content/17_production')),
  entry('capstone', () => import('./content/22_capstone')),
  entry('choosing-a-lock', () => import('./content/23_choosing_a_lock')),
];

export function loadAllLessons(): Promise<Lesson[]> {
  return Promise.all(lessonCatalog.map((e) => e.load()));
}
