import { useT } from '../hooks/useT';
import { clockAt, jumpToViolation, usePlayground } from '../store';
import { violationTitle, violationWho } from './violation-text';

/** Each violation in plain words, with a button that moves the cursor to where it starts. */
export function ViolationList() {
  const t = useT();
  const run = usePlayground((s) => s.run);
  // Predict mode: only the violations that have begun by the cursor are listed.
  const until = usePlayground((s) => (s.predict ? clockAt(s) : Infinity));
  const shown = run?.model.violations.filter((v) => v.from <= until) ?? [];
  if (!run || shown.length === 0) return null;
  // More than three rows scroll in their own box, so the transport stays on screen (stock-oversell
  // has nine); a scrolling box must be reachable by keyboard.
  const many = shown.length > 3;
  return (
    <ol
      className={many ? 'violations violations--many' : 'violations'}
      tabIndex={many ? 0 : undefined}
      aria-label={t('violations.label', { n: shown.length })}
    >
      {shown.map((v, i) => (
        <li key={i} className="violations__item" data-kind={v.kind}>
          <button type="button" className="violations__jump" onClick={() => jumpToViolation(run.trace, v)}>
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
