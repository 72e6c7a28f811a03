/**
 * The picker's search: a symptom, an exception or a word in either language finds the built-ins
 * that show it. An incident is found by its keywords, symptom, cause, release and links as well as
 * by its title and text, so "IllegalMonitorStateException" or "卡住" lists the incidents that show it.
 */
import type { BuiltinInfo } from './engine-adapter';

/** Every text a query may match, lower-cased, in one string. */
function haystack(b: BuiltinInfo): string {
  const parts = [b.id, b.title, b.titleZh ?? '', b.description, b.descriptionZh ?? ''];
  const i = b.incident;
  if (i)
    parts.push(
      ...i.keywords,
      i.symptom.en,
      i.symptom.zh,
      i.cause.en,
      i.cause.zh,
      i.reported,
      i.fixedIn ?? '',
      ...i.links,
    );
  return parts.join('\n').toLowerCase();
}

const cache = new WeakMap<BuiltinInfo, string>();

function textOf(b: BuiltinInfo): string {
  let t = cache.get(b);
  if (t === undefined) cache.set(b, (t = haystack(b)));
  return t;
}

/** Words of a query (split on spaces; a Chinese phrase without spaces is one word). */
export function queryWords(query: string): string[] {
  return query.toLowerCase().split(/\s+/).filter(Boolean);
}

/** Built-ins matching every word of `query`, incidents first (they are what a symptom is about). */
export function searchBuiltins(builtins: readonly BuiltinInfo[], query: string): BuiltinInfo[] {
  const words = queryWords(query);
  if (words.length === 0) return [];
  const hits = builtins.filter((b) => {
    const t = textOf(b);
    return words.every((w) => t.includes(w));
  });
  return [...hits.filter((b) => b.incident), ...hits.filter((b) => !b.incident)];
}
