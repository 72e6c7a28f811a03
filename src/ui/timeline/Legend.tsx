import { faultsOf } from '../../engine/scenario/edit';
import { useT } from '../hooks/useT';
import { usePlayground } from '../store';
import { legendItems } from './legend-items';

const HOLLOW = new Set(['ring', 'refused', 'cross', 'triangle', 'dash']);

/** The key to the timeline's colours and marks: the common ones always, the rarer ones when drawn. */
export function Legend() {
  const t = useT();
  const model = usePlayground((s) => s.run?.model);
  const faults = usePlayground((s) => faultsOf(s.scenario).length > 0);
  return (
    <ul className="legend" aria-label={t('legend.title')} data-testid="legend">
      {legendItems(model, { faults }).map((it) => (
        <li key={it.key} className="legend__item" data-legend={it.key}>
          <span
            className={`legend__swatch legend__swatch--${it.shape}`}
            style={{
              background: it.fill ?? (HOLLOW.has(it.shape) ? 'transparent' : it.color),
              borderColor: it.color,
              color: it.color,
            }}
          />
          {t(it.key)}
        </li>
      ))}
    </ul>
  );
}
