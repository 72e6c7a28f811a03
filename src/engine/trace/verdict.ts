import type { Trace } from './types';

/**
 * The verdict a run may be read as. A run stopped before its end (`truncated`) with nothing broken
 * is "cut", never "safe": what came after the cut was never judged. Its violations, when it has
 * some, stand: they happened. The page shows it, the lessons grade by it.
 */
export type ShownVerdict = Trace['verdict'] | 'cut';

export function shownVerdict(trace: Pick<Trace, 'verdict' | 'truncated'>): ShownVerdict {
  return trace.truncated === true && trace.verdict === 'safe' ? 'cut' : trace.verdict;
}
