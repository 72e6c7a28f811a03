import { DEFAULT_RUN_CAP_MS } from '../../engine/scenario/run_limits';
import type { Trace } from '../../engine/trace/types';
import { shownVerdict, type ShownVerdict } from '../../engine/trace/verdict';
import type { MessageKey, Params } from '../i18n';

export { shownVerdict, type ShownVerdict } from '../../engine/trace/verdict';

/** What the page calls each verdict (engine/trace/verdict.ts). */
export const VERDICT_LABEL: Record<ShownVerdict, MessageKey> = {
  safe: 'verdict.safe',
  unsafe: 'verdict.unsafe',
  stuck: 'verdict.stuck',
  cut: 'verdict.cut',
};

/**
 * Why and when a run stopped before its end, in words ('' for a run that ran to its end). A cut
 * run with nothing broken also says that this is no verdict on the whole run. The verdict's
 * tooltip and the exported image both say it, so a slide tells what the page does.
 */
export function cutNote(
  trace: Pick<Trace, 'verdict' | 'truncated' | 'truncatedBy' | 'final'>,
  t: (key: MessageKey, params?: Params) => string,
): string {
  if (trace.truncated !== true) return '';
  const long = t('verdict.cutLong', {
    // cut by time, it was stopped at the cap, after its last event
    t: trace.truncatedBy === 'time' ? DEFAULT_RUN_CAP_MS : trace.final.t,
    why: t(`verdict.cut.${trace.truncatedBy ?? 'events'}`, { s: DEFAULT_RUN_CAP_MS / 1000 }),
  });
  return shownVerdict(trace) === 'cut' ? sentences(long, t('verdict.cutNothing')) : long;
}

/** Sentences one after another: a space after a Latin one, none after a Chinese full stop. */
export function sentences(...parts: string[]): string {
  return parts
    .filter((p) => p !== '')
    .reduce((all, p) => (all === '' ? p : /[。！？]$/.test(all) ? all + p : `${all} ${p}`), '');
}
