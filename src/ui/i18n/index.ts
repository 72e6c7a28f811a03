/**
 * The one i18n layer: every visible string goes through `translate` (or the `useT` hook), so the
 * two languages cannot drift apart — zh.ts is typed against en.ts's keys.
 */
import { en, type MessageKey } from './en';

export type Lang = 'en' | 'zh';
export type { MessageKey };

// English ships with the page; Chinese loads when chosen (or detected), before it is shown, so
// an English reader does not download it. Until then a key falls back to English. The strings
// only a lazy view uses come with its chunk, which adds them here when it loads (addEnglish).
const english: Partial<Record<MessageKey, string>> = { ...en };
const tables: Partial<Record<Lang, Partial<Record<MessageKey, string>>>> = { en: english };

/** Adds a lazy view's English table (en-learn.ts, ...): its module calls this when it loads. */
export function addEnglish(table: Partial<Record<MessageKey, string>>): void {
  Object.assign(english, table);
}

/** Whether `key` has English text now (a lazy view's keys once its chunk has loaded). */
export function hasMessage(key: string): key is MessageKey {
  return Object.hasOwn(english, key);
}

/** Loads a language's table; resolve before switching the page to it. */
export async function loadLang(lang: Lang): Promise<void> {
  if (tables[lang]) return;
  if (lang === 'zh') {
    const [{ zh }, { LUA_COMMENTS_ZH }] = await Promise.all([import('./zh'), import('./lua-comments.zh')]);
    luaComments = new Map(LUA_COMMENTS_ZH.map(([en, text]) => [en, text.split('\n')]));
    tables.zh = zh;
  }
}

let luaComments: ReadonlyMap<string, readonly string[]> | null = null;

/** The Lua scripts' comment blocks in 中文, line by line, once the Chinese chunk has loaded. */
export function luaCommentsZh(): ReadonlyMap<string, readonly string[]> | null {
  return luaComments;
}

export type Params = Record<string, string | number>;

export function translate(lang: Lang, key: MessageKey, params?: Params): string {
  const text = tables[lang]?.[key] ?? english[key] ?? key;
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

export function htmlLang(lang: Lang): string {
  return lang === 'zh' ? 'zh-CN' : 'en';
}

export function detectLang(stored: string | null, navigatorLang: string | undefined): Lang {
  if (stored === 'en' || stored === 'zh') return stored;
  return navigatorLang?.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}
