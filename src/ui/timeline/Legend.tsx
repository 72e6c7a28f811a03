import { useT } from '../hooks/useT';
import { useExplore } from '../explore/store';
import { usePlayground } from '../store';
import type { LaneModel, MarkKind } from './model';
import { BAND_COLOR, COLORS, MARK_COLOR } from './palette';

type Shape = 'box' | 'tick' | 'dot' | 'ring' | 'cross' | 'refused' | 'added';

/** Which of the marks that only some runs have this run draws. */
function inUse(model: LaneModel | undefined) {
  const marks = new Set<MarkKind>();
  let partial = false;
  let releasing = false;
  let noTtl = false;
  // Spans too short to see at the whole-run zoom would only add noise to the key.
  const visible = (s: { from: number; to: number }) => s.to - s.from >= (model?.tEnd ?? 0) / 200;
  for (const l of model?.threads ?? []) {
    for (const m of l.marks) marks.add(m.kind);
    if (l.partial.some(visible)) partial = true;
    if (l.holds.some((h) => h.releasing && visible(h))) releasing = true;
  }
  for (const n of model?.nodes ?? []) if (n.keys.some((k) => k.expireAt === null && k.label)) noTtl = true;
  const stuck = model?.violations.some((v) => v.kind === 'L1') ?? false;
  const safety = model?.violations.some((v) => v.kind !== 'L1') ?? false;
  return { marks, partial, releasing, noTtl, stuck, safety };
}

/** The key to the timeline's colours and marks: the common ones always, the rarer ones when drawn. */
export function Legend() {
  const t = useT();
  const model = usePlayground((s) => s.run?.model);
  const scenario = usePlayground((s) => s.scenario);
  const searched = useExplore((s) => s.status.phase === 'found' && s.status.found.scenario === scenario);
  const use = inUse(model);
  const swatch = (color: string, label: string, shape: Shape = 'box', fill?: string) => (
    <li key={label} className="legend__item">
      <span
        className={`legend__swatch legend__swatch--${shape}`}
        style={{
          background: fill ?? (shape === 'ring' || shape === 'refused' || shape === 'cross' ? '#fff' : color),
          borderColor: color,
          color,
        }}
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
      {use.releasing && swatch(COLORS.hold, t('legend.releasing'), 'box', COLORS.releasing)}
      {use.partial && swatch(COLORS.hold, t('legend.partial'), 'box', COLORS.partial)}
      {swatch(BAND_COLOR.paused, t('legend.paused'))}
      {swatch(BAND_COLOR.crashed, t('legend.crashed'))}
      {swatch(COLORS.keyEdge, t('legend.key'))}
      {use.noTtl && swatch(COLORS.keyEdge, t('legend.keyNoTtl'), 'box', COLORS.keyNoTtl)}
      {swatch(COLORS.down, t('legend.down'))}
      {searched && swatch(COLORS.searchAdded, t('legend.searchAdded'), 'added', '#fca5a5')}
      {swatch(MARK_COLOR.renew, t('legend.renewAttempt'), 'tick')}
      {use.marks.has('renew-fail') && swatch(MARK_COLOR['renew-fail'], t('legend.renewFail'), 'tick')}
      {swatch(COLORS.pubsub, t('legend.publish'), 'tick')}
      {swatch(MARK_COLOR['wake-message'], t('legend.wakeMsg'), 'dot')}
      {swatch(MARK_COLOR['wake-timeout'], t('legend.wakeTimeout'), 'ring')}
      {use.marks.has('error') && swatch(MARK_COLOR.error, t('legend.error'), 'cross')}
      {use.marks.has('resource') && swatch(MARK_COLOR.resource, t('legend.write'), 'dot')}
      {use.marks.has('refused') && swatch(MARK_COLOR.refused, t('legend.refused'), 'refused')}
      {(use.safety || !use.stuck) && swatch(COLORS.violationEdge, t('legend.violation'))}
      {use.stuck && swatch(COLORS.stuckEdge, t('legend.stuck'), 'box', COLORS.stuck)}
    </ul>
  );
}
