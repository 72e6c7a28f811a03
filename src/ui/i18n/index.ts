/**
 * The one i18n layer: every visible string goes through `translate` (or the `useT` hook), so the
 * two languages cannot drift apart — zh.ts is typed against en.ts's keys.
 */
import { en, type MessageKey } from './en';

export type Lang = 'en' | 'zh';
export type { MessageKey };

// English ships with the page; Chinese loads when chosen (or detected), before it is shown, so
// an English reader does not download it. Until then a key falls back to English.
const tables: Partial<Record<Lang, Record<MessageKey, string>>> = { en };

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
  const text = tables[lang]?.[key] ?? en[key];
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
