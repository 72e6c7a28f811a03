import type { ShownVerdict } from '../../engine/trace/verdict';
import type { MessageKey } from '../i18n';

export { shownVerdict, type ShownVerdict } from '../../engine/trace/verdict';

/** What the page calls each verdict (engine/trace/verdict.ts). */
export const VERDICT_LABEL: Record<ShownVerdict, MessageKey> = {
  safe: 'verdict.safe',
  unsafe: 'verdict.unsafe',
  stuck: 'verdict.stuck',
  cut: 'verdict.cut',
};
