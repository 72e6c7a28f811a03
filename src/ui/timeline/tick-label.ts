import type { MessageKey, Params } from '../i18n';

/**
 * A time axis tick in the reader's language: whole and fractional seconds from 1 s, else ms. The
 * timeline and the exported image label their axes with it, so a slide reads as the page does.
 */
export function tickLabel(ms: number, t: (key: MessageKey, params?: Params) => string): string {
  if (Math.abs(ms) >= 1000) return t('unit.s', { n: +(ms / 1000).toFixed(3) });
  return t('unit.ms', { n: ms });
}
