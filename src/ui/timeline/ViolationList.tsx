import { useT } from '../hooks/useT';
import { clockAt, indexAtTime, setCursor, usePlayground } from '../store';
import { focusWindow, requestView } from '../view-window';
import { violationTitle, violationWho } from './violation-text';

/** Each violation in plain words, with a button that moves the cursor to where it starts. */
export function ViolationList() {
  const t = useT();
  const run = usePlayground((s) => s.run);
  // Predict mode: only the violations that have begun by the cursor are listed.
  const until = usePlayground((s) => (s.predict ? clockAt(s) : Infinity));
  const shown = run?.model.violations.filter((v) => v.from <= until) ?? [];
  if (!run || shown.length === 0) return null;
  return (
    <ol className="violations">
      {shown.map((v, i) => (
        <li key={i} className="violations__item" data-kind={v.kind}>
          <button
            type="button"
            className="violations__jump"
            onClick={() => {
              usePlayground.setState({ playing: false });
              setCursor(indexAtTime(run.trace, v.from));
              // A short violation in a long run is a few pixels wide: show it with its context.
              const end = run.trace.events[run.trace.events.length - 1]?.t ?? v.from;
              requestView(...focusWindow(v.from, v.to ?? end, end));
            }}
          >
            <span className="violations__kind">{v.kind}</span>
            {violationTitle(v, t)}
          </button>
          <span className="violations__meta">
            {t('violation.span', { from: v.from, to: v.open ? t('violation.open') : `${v.to} ms` })} ·{' '}
            {violationWho(v, t)}
          </span>
        </li>
      ))}
    </ol>
  );
}
