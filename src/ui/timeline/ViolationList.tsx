import { useT } from '../hooks/useT';
import { indexAtTime, setCursor, usePlayground } from '../store';
import { focusWindow, requestView } from '../view-window';
import { violationTitle, violationWho } from './violation-text';

/** Each violation in plain words, with a button that moves the cursor to where it starts. */
export function ViolationList() {
  const t = useT();
  const run = usePlayground((s) => s.run);
  if (!run || run.model.violations.length === 0) return null;
  return (
    <ol className="violations">
      {run.model.violations.map((v, i) => (
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
            {t('violation.span', {
              from: v.from,
              to: v.open ? t('violation.open') : t('unit.ms', { n: v.to ?? 0 }),
            })}{' '}
            · {violationWho(v, t)}
          </span>
        </li>
      ))}
    </ol>
  );
}
