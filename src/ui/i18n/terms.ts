/**
 * One Chinese term per concept. The lessons, the captions, the legend, the panels and the glossary
 * say each of these concepts with `term` and never with one of its `variants` (terms.test.ts scans
 * every Chinese string for them). Inline code (`…`) and placeholders ({…}) are not prose and are
 * not scanned; an English gloss in parentheses after the term, "防护令牌（fencing token）", is allowed.
 */
export interface ZhTerm {
  concept: string;
  term: string;
  /** other words for the same concept that must not appear in Chinese prose */
  variants: RegExp[];
}

export const ZH_TERMS: readonly ZhTerm[] = [
  { concept: 'lease (how long the lock key lives)', term: '租期', variants: [/租约/] },
  { concept: 'fencing token', term: '防护令牌', variants: [/\bfencing\b/i, /\btokens?\b/i] },
  { concept: 'hold count (how many times a thread holds a lock)', term: '持有次数', variants: [/重入次数/, /重入计数/] },
  { concept: 'the timeline cursor', term: '游标', variants: [/光标/] },
  // the panel under the keyspace where Redis commands are typed (inspect.console)
  { concept: 'the command console', term: '命令行', variants: [/控制台/] },
  // lower case only: `KEYS` is Lua's name for a script's key arguments
  { concept: 'a Redis key', term: '键', variants: [/\bkeys?\b/] },
];

/** Chinese prose only: inline code, placeholders and parenthesised English glosses removed. */
export function zhProse(text: string): string {
  return text
    .replace(/`[^`]*`/g, ' ')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/[（(][A-Za-z][A-Za-z0-9 .,'’-]*[)）]/g, ' ');
}

/** The variants of `ZH_TERMS` that `text` uses, as "variant (use term)". */
export function zhTermClashes(text: string): string[] {
  const prose = zhProse(text);
  const out: string[] = [];
  for (const t of ZH_TERMS)
    for (const v of t.variants) {
      const m = v.exec(prose);
      if (m) out.push(`“${m[0]}” (say “${t.term}”: ${t.concept})`);
    }
  return out;
}
