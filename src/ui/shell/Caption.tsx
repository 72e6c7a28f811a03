import { captionOfEvent } from '../caption';
import { describeEvent } from '../describe-event';
import { useT } from '../hooks/useT';
import { eventAt } from '../run-outline';
import { usePlayground } from '../store';
import './caption.css';
import { LinkedText } from './Glossary';

/**
 * The sentence for the event at the cursor, its terms linked to the glossary; the raw event is
 * one click away under it.
 */
export function Caption() {
  const t = useT();
  const lang = usePlayground((s) => s.lang);
  const run = usePlayground((s) => s.run);
  const cursor = usePlayground((s) => s.cursor);
  const playing = usePlayground((s) => s.playing);
  // before the first event nothing is read of the events (they may not be parsed yet)
  const ev = run ? eventAt(run, cursor) : undefined;
  const parts = run && ev ? captionOfEvent(ev, () => run.trace.events, lang) : null;
  const raw = ev ? describeEvent(ev) : null;
  return (
    <section className="caption" data-testid="caption" aria-label={t('caption.label')}>
      <p className="caption__text" data-testid="caption-text" aria-live={playing ? 'off' : 'polite'}>
        {parts ? <LinkedText parts={parts} /> : <span className="muted">{t('caption.none')}</span>}
      </p>
      {raw && (
        <details className="caption__raw">
          <summary>{t('caption.raw')}</summary>
          <code>{raw.head}</code>
          {raw.details.map((d, i) => (
            <code key={i}>{d}</code>
          ))}
        </details>
      )}
    </section>
  );
}
