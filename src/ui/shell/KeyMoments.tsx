import { useMemo } from 'react';
import { momentEnd, type KeyMoment } from '../../engine/trace/key_moments';
import { lastEventT, momentsOf } from '../run-outline';
import { useT } from '../hooks/useT';
import { setCursor, usePlayground } from '../store';
import { focusWindow, requestView } from '../view-window';

/**
 * The run's key moments as one-click chips: each moves the cursor to its event and zooms the
 * timeline to it. A violation's chip shows the whole violation, an acquire its hold when that is
 * short; other moments a window around them.
 */
export function KeyMoments() {
  const t = useT();
  const run = usePlayground((s) => s.run);
  const lang = usePlayground((s) => s.lang);
  const cursor = usePlayground((s) => s.cursor);
  const moments = useMemo(() => (run ? momentsOf(run) : []), [run]);
  if (!run || moments.length === 0) return null;
  const runEnd = lastEventT(run);
  const go = (m: KeyMoment) => {
    usePlayground.setState({ playing: false });
    setCursor(m.index);
    const from = m.t;
    let to = momentEnd(run.trace, m);
    if (m.kind === 'violation') {
      // the violation this chip's violation.start opened (several may start in the same ms)
      const ev = run.trace.events[m.index];
      const v =
        ev.kind === 'violation.start'
          ? run.trace.violations.find((x) => x.from === m.t && x.kind === ev.violation && x.lock === ev.lock)
          : undefined;
      if (v) to = v.to ?? runEnd;
    }
    const [a, b] = focusWindow(from, to, runEnd);
    requestView(a, b);
  };
  return (
    <nav className="moments" aria-label={t('moments.label')} data-testid="key-moments">
      <span className="moments__label">{t('moments.label')}</span>
      {moments.map((m) => (
        <button
          key={m.index}
          type="button"
          className={`moments__chip moments__chip--${m.kind}${m.index === cursor ? ' is-current' : ''}`}
          aria-current={m.index === cursor ? 'step' : undefined}
          title={t('unit.ms', { n: m.t })}
          onClick={() => go(m)}
        >
          {lang === 'zh' ? m.zh : m.en}
        </button>
      ))}
    </nav>
  );
}
