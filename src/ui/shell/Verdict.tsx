import { useT } from '../hooks/useT';
import { usePlayground } from '../store';
import { cutNote, sentences, shownVerdict, VERDICT_LABEL } from './shown-verdict';

/**
 * The run's verdict: safe, unsafe with the number of violations, or stuck (liveness only: a lock
 * nobody can release, shown apart from unsafe because nothing wrong was written). A run stopped
 * before its end with nothing broken is "cut short", never Safe: nothing after the cut was judged.
 */
export function Verdict({
  testId = 'verdict',
  className = '',
}: { testId?: string; className?: string } = {}) {
  const t = useT();
  const run = usePlayground((s) => s.run);
  const trace = run?.trace;
  const verdict = trace === undefined ? undefined : shownVerdict(trace);
  const n = trace?.violations.length ?? 0;
  const cut = trace === undefined ? '' : cutNote(trace, t);
  const long =
    verdict === 'unsafe'
      ? t('verdict.unsafeLong', { n })
      : verdict === 'stuck'
        ? t('verdict.stuckLong')
        : verdict === 'safe'
          ? t('verdict.safeLong')
          : '';
  return (
    <div
      className={`verdict verdict--${verdict ?? 'none'}${className ? ` ${className}` : ''}`}
      title={sentences(long, cut)}
    >
      <span data-testid={testId} data-verdict={verdict ?? 'none'}>
        {t(verdict === undefined ? 'verdict.none' : VERDICT_LABEL[verdict])}
      </span>
      {verdict === 'unsafe' && <span className="verdict__count">{n}</span>}
    </div>
  );
}
