/**
 * Lessons cite each other as `{lesson:<id>}` ("as in lesson {lesson:atomic-release}"), never by a
 * written number: the course's order lives in index.ts alone, and a lesson inserted earlier in it
 * would make every written number wrong. Loading a lesson replaces each reference with the cited
 * lesson's number in the catalogue (1-based, as the page numbers them).
 */
export const LESSON_REF = /\{lesson:([a-z0-9-]+)\}/g;

/** `x` with every `{lesson:<id>}` in its strings replaced; an unknown id throws. */
export function resolveLessonRefs<T>(x: T, numberOf: (id: string) => number | undefined): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string')
      return v.replace(LESSON_REF, (_m, id: string) => {
        const n = numberOf(id);
        if (n === undefined) throw new Error(`{lesson:${id}}: no lesson "${id}" in the course`);
        return String(n);
      });
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, w]) => [k, walk(w)]));
    return v;
  };
  return walk(x) as T;
}
