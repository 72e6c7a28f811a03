import { useT } from '../hooks/useT';
import { usePlayground } from '../store';

/**
 * The run's verdict: safe, unsafe with the number of violations, or stuck (liveness only: a lock
 * nobody can release, shown apart from unsafe because nothing wrong was written).
 */
export function Verdict({ testId = 'verdict', className = '' }: { testId?: string; className?: string } = {}) {
  const t = useT();
  const run = usePlayground((s) => s.run);
  const verdict = run?.trace.verdict;
  const n = run?.trace.violations.length ?? 0;
  return (
    <div
      className={`verdict verdict--${verdict ?? 'none'}${className ? ` ${className}` : ''}`}
      title={
        verdict === 'unsafe'
          ? t('verdict.unsafeLong', { n })
          : verdict === 'stuck'
            ? t('verdict.stuckLong')
            : verdict
              ? t('verdict.safeLong')
              : ''
      }
    >
      <span data-testid={testId} data-verdict={verdict ?? 'none'}>
        {verdict === 'unsafe'
          ? t('verdict.unsafe')
          : verdict === 'stuck'
            ? t('verdict.stuck')
            : verdict === 'safe'
              ? t('verdict.safe')
              : t('verdict.none')}
      </span>
      {verdict === 'unsafe' && <span className="verdict__count">{n}</span>}
    </div>
  );
}
