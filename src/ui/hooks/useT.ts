import { useCallback } from 'react';
import { translate, type MessageKey, type Params } from '../i18n';
import { usePlayground } from '../store';

/** The translation function for the current language. */
export function useT(): (key: MessageKey, params?: Params) => string {
  const lang = usePlayground((s) => s.lang);
  return useCallback((key: MessageKey, params?: Params) => translate(lang, key, params), [lang]);
}
