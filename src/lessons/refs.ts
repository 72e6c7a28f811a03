/**
 * A lesson's text names another lesson by id, `{lesson:watchdog}`, never by its number: lessons
 * are inserted where they belong in the argument, and every number after them moves. The page
 * and the CLI put the lesson's current place in the course (1-based) where the token stands.
 */
import { lessonCatalog } from './index';

export const LESSON_REF = /\{lesson:([a-z0-9-]+)\}/g;

/** `text` with every `{lesson:<id>}` replaced by that lesson's number in the course. */
export function resolveLessonRefs(
  text: string,
  ids: readonly string[] = lessonCatalog.map((e) => e.id),
): string {
  return text.replace(LESSON_REF, (token, id: string) => {
    const i = ids.indexOf(id);
    return i < 0 ? token : String(i + 1);
  });
}
