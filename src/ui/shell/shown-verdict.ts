import type { Trace } from '../../engine/trace/types';
import type { MessageKey } from '../i18n';

/**
 * The verdict the page shows for a run. A run stopped before its end (`truncated`) with nothing
 * broken is "cut", never "safe": what came after the cut was never judged. Its violations, when it
 * has some, stand: they happened.
 */
export type ShownVerdict = Trace['verdict'] | 'cut';

export function shownVerdict(trace: Pick<Trace, 'verdict' | 'truncated'>): ShownVerdict {
  return trace.truncated === true && trace.verdict === 'safe' ? 'cut' : trace.verdict;
}

export const VERDICT_LABEL: Record<ShownVerdict, MessageKey> = {
  safe: 'verdict.safe',
  unsafe: 'verdict.unsafe',
  stuck: 'verdict.stuck',
  cut: 'verdict.cut',
};
