import { useT } from '../hooks/useT';
import { BAND_COLOR, COLORS, MARK_COLOR } from './palette';

/** The key to the timeline's colours and marks. */
export function Legend() {
  const t = useT();
  const swatch = (color: string, label: string, shape: 'box' | 'tick' | 'dot' | 'ring' = 'box') => (
    <li key={label} className="legend__item">
      <span
        className={`legend__swatch legend__swatch--${shape}`}
        style={{ background: shape === 'ring' ? '#fff' : color, borderColor: color }}
      />
      {label}
    </li>
  );
  return (
    <ul className="legend" aria-label={t('legend.title')}>
      {swatch(BAND_COLOR.running, t('legend.running'))}
      {swatch(BAND_COLOR.working, t('legend.working'))}
      {swatch(BAND_COLOR.waiting, t('legend.waiting'))}
      {swatch(COLORS.hold, t('legend.holding'))}
      {swatch(BAND_COLOR.paused, t('legend.paused'))}
      {swatch(BAND_COLOR.crashed, t('legend.crashed'))}
      {swatch(COLORS.keyEdge, t('legend.key'))}
      {swatch(COLORS.down, t('legend.down'))}
      {swatch(MARK_COLOR.renew, t('legend.renew'), 'tick')}
      {swatch(COLORS.pubsub, t('legend.publish'), 'tick')}
      {swatch(MARK_COLOR['wake-message'], t('legend.wakeMsg'), 'dot')}
      {swatch(MARK_COLOR['wake-timeout'], t('legend.wakeTimeout'), 'ring')}
      {swatch(COLORS.violationEdge, t('legend.violation'))}
    </ul>
  );
}
