import { useState } from 'react';
import { faultsOf } from '../../engine/scenario/edit';
import { useT } from '../hooks/useT';
import { useExplore } from '../explore/store';
import { usePlayground } from '../store';
import { legendItems } from './legend-items';
import { legendUntil } from './predict-cursor';

const HOLLOW = new Set(['ring', 'refused', 'cross', 'triangle', 'dash']);

/** The key to the timeline's colours and marks: the common ones always, the rarer ones when drawn. */
export function Legend() {
  const t = useT();
  const model = usePlayground((s) => s.run?.model);
  const faults = usePlayground((s) => faultsOf(s.scenario).length > 0);
  const scenario = usePlayground((s) => s.scenario);
  // predict mode: only the marks drawn up to the cursor, as the veil hides the rest
  const until = usePlayground(legendUntil);
  const searched = useExplore((s) => s.status.phase === 'found' && s.status.found.scenario === scenario);
  // A projector's lesson folds the legend to its first line (learn.css): this opens the rest.
  const [open, setOpen] = useState(false);
  return (
    <>
      {/* Focusable because on short screens the legend is one row that scrolls sideways, and a
        keyboard user must be able to reach what is off to the right. */}
      <ul
        className={`legend${open ? ' legend--open' : ''}`}
        aria-label={t('legend.title')}
        data-testid="legend"
        tabIndex={0}
      >
        {legendItems(model, until === undefined ? { faults, searched } : { faults, searched, until }).map(
          (it) => (
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
          ),
        )}
      </ul>
      <button
        type="button"
        className="btn btn--small legend__more"
        data-testid="legend-more"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        {t(open ? 'legend.less' : 'legend.more')}
      </button>
    </>
  );
}
