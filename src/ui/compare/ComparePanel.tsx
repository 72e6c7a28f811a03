/**
 * Two scenarios on one time axis: the current one (with its edits) and a built-in, each with its
 * verdict, under one cursor. The cursor is the playground's: its time picks the event shown in the
 * second run, and a click on either plot moves it. The lanes are painted by the timeline's own
 * drawing code, so both sides read exactly as the timeline does.
 */
import { scaleLinear, type LinearScale } from '../timeline/linear-scale';
import { useEffect, useMemo, useRef } from 'react';
import { loadBuiltin } from '../controller';
import { usePick } from '../hooks/usePick';
import { useT } from '../hooks/useT';
import { cutNote, shownVerdict, VERDICT_LABEL } from '../shell/shown-verdict';
import { indexAtTime, setCursor, usePlayground, type RunView } from '../store';
import { drawAxisTop } from '../timeline/axis';
import { drawTimeline, textWidth } from '../timeline/draw';
import { roleChange, roleWord, slotText } from '../timeline/LaneMenu';
import { computeLayout } from '../timeline/layout';
import { CanvasPainter } from '../timeline/painter';
import { TopologyView, useWidth } from '../topology/TopologyView';
import { useViews } from '../topology/views';
import { PRESETS, useCompareRunOf } from './compare-run';
import { labelColumnWidth, labelLines, measureLine } from './label-column';
import { addEnglish } from '../i18n';
import { enCompare } from '../i18n/en-compare';

// the strings only this view uses come with its chunk (i18n/en-compare.ts)
addEnglish(enCompare);

const AXIS_H = 22;

function VerdictBadge({ run, testId }: { run: RunView; testId: string }) {
  const t = useT();
  const v = shownVerdict(run.trace);
  const n = run.trace.violations.length;
  const key = VERDICT_LABEL[v];
  return (
    <span
      className={`verdict verdict--${v}`}
      data-testid={testId}
      data-verdict={v}
      title={cutNote(run.trace, t) || undefined}
    >
      {t(key)}
      {v === 'unsafe' && <span className="verdict__count">{n}</span>}
    </span>
  );
}

/** One side's lanes: labels, the timeline's painting, the shared cursor; a click moves the cursor. */
function Lanes({
  run,
  x,
  width,
  labelW,
  cursorT,
  label,
  testId,
}: {
  run: RunView;
  x: LinearScale;
  width: number;
  labelW: number;
  cursorT: number;
  label: string;
  testId: string;
}) {
  const t = useT();
  const layout = useMemo(() => computeLayout(run.model), [run.model]);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const labels = useMemo(
    () => ({ threads: t('timeline.threads'), nodes: t('timeline.nodes'), down: t('inspect.down') }),
    [t],
  );
  useEffect(() => {
    const c = canvasRef.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round(width * dpr);
    c.height = Math.round(layout.height * dpr);
    c.style.width = `${width}px`;
    c.style.height = `${layout.height}px`;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, layout.height);
    drawTimeline(new CanvasPainter(ctx), run.model, layout, x, width, labels);
  }, [run.model, layout, x, width, labels]);

  const onClick = (e: React.MouseEvent<HTMLDivElement>) => {
    const main = usePlayground.getState().run;
    if (!main) return;
    const r = e.currentTarget.getBoundingClientRect();
    usePlayground.setState({ playing: false });
    setCursor(indexAtTime(main.trace, x.invert(e.clientX - r.left)));
  };
  return (
    <div className="compare__lanes" data-testid={testId}>
      <div className="compare__labels" style={{ width: labelW, height: layout.height }}>
        {layout.rows.map((r) => {
          if (r.kind === 'header-shard')
            return (
              <span key={`shard-${r.shard}`} className="compare__shard" style={{ top: r.y, height: r.h }}>
                {t('timeline.shard', { n: r.shard ?? 0 })}
              </span>
            );
          if (!r.id) return null;
          // as the timeline's labels: a node's role at the cursor once it changed, a cluster node's slots
          const role = r.kind === 'node' ? roleChange(r.id, run.model, cursorT) : null;
          const slots = r.kind === 'node' ? slotText(r.id, run.model, cursorT, t) : null;
          return (
            <span key={r.id} style={{ top: r.y, height: r.h }} data-testid="compare-label">
              <span>{r.id}</span>
              {role !== null && <span className="compare__role">→ {roleWord(role, t)}</span>}
              {slots !== null && <span className="compare__slots">{slots}</span>}
            </span>
          );
        })}
      </div>
      <div
        className="compare__plot"
        style={{ height: layout.height }}
        role="img"
        aria-label={label}
        title={t('compare.clickHint')}
        onClick={onClick}
      >
        <canvas ref={canvasRef} aria-hidden="true" />
        <div
          className="compare__cursor"
          data-testid="compare-cursor"
          style={{ height: layout.height, transform: `translateX(${Math.round(x(cursorT)) - 1}px)` }}
        />
      </div>
    </div>
  );
}

export function ComparePanel() {
  const t = useT();
  const { lang, run, cursor } = usePick(usePlayground, 'lang', 'run', 'cursor');
  const { builtins, builtinId, originId } = usePick(usePlayground, 'builtins', 'builtinId', 'originId');
  const { compareId: compareOrNull, mode } = usePick(useViews, 'compareId', 'mode');
  const compareId = compareOrNull ?? '';
  const other = useCompareRunOf(compareId);
  const boxRef = useRef<HTMLElement>(null);
  const axisRef = useRef<SVGSVGElement>(null);
  // One label column for both sides (they share the x axis), as wide as their widest label.
  const labelW = useMemo(() => {
    const lines = [run, other.run].flatMap((r) =>
      r
        ? labelLines(
            r.model,
            (role) => roleWord(role, t),
            (slots) => t('timeline.slots', { slots: slots.replace(/-/g, '–') }),
          )
        : [],
    );
    return labelColumnWidth(lines, (l) => measureLine(l, textWidth));
  }, [run, other.run, t]);
  const width = useWidth(boxRef, 160, labelW + 2);

  const tEnd = Math.max(run?.model.tEnd ?? 1, other.run?.model.tEnd ?? 1);
  const x = useMemo(
    () =>
      scaleLinear()
        .domain([0, tEnd * 1.02])
        .range([6, Math.max(50, width - 10)]),
    [tEnd, width],
  );
  useEffect(() => {
    const g = axisRef.current?.querySelector('g');
    if (!g) return;
    g.setAttribute('transform', `translate(0,${AXIS_H - 1})`);
    drawAxisTop(g, x, Math.max(2, Math.floor(width / 90)), (d) => `${+(d / 1000).toFixed(3)} s`);
  }, [x, width]);

  const titleOf = (id: string | null) => {
    const b = builtins.find((x) => x.id === id);
    return b ? (lang === 'zh' && b.titleZh ? b.titleZh : b.title) : null;
  };
  const origin = titleOf(originId);
  const mainTitle =
    titleOf(builtinId) ?? (origin ? t('header.modified', { title: origin }) : t('header.custom'));
  const ev = run?.trace.events[cursor];
  // Before the first event the cursor stands at 0 ms, as the timeline's clock says.
  const cursorT = ev ? ev.t : 0;
  const otherIndex = other.run ? indexAtTime(other.run.trace, cursorT) : -1;
  const canBefore = builtinId === null && originId !== null;
  // what both sides share: the time axis, the label column and the cursor
  const scale = { x, width, labelW, cursorT };

  return (
    <section className="compare" ref={boxRef} data-testid="compare" aria-label={t('compare.title')}>
      <div className="compare__bar">
        <h2>{t('compare.title')}</h2>
        <label>
          <span className="sr-only">{t('compare.with')}</span>
          <select
            data-testid="compare-picker"
            aria-label={t('compare.with')}
            value={compareId}
            onChange={(e) => {
              e.target.blur();
              useViews.setState({ compareId: e.target.value });
            }}
          >
            {builtins.map((b) => (
              <option key={b.id} value={b.id}>
                {titleOf(b.id)}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="btn btn--small"
          disabled={!canBefore}
          data-testid="compare-before"
          onClick={() => useViews.setState({ compareId: originId })}
        >
          {t('compare.before')}
        </button>
        <button
          type="button"
          className="btn btn--small"
          data-testid="compare-close"
          onClick={() => useViews.setState({ compareId: null })}
        >
          {t('compare.close')}
        </button>
      </div>
      <div className="compare__presets" role="group" aria-label={t('compare.presets')}>
        {PRESETS.map((p) => (
          <button
            key={p.key}
            type="button"
            className="btn btn--small"
            data-testid={`compare-preset-${p.a}`}
            disabled={!builtins.some((b) => b.id === p.a) || !builtins.some((b) => b.id === p.b)}
            onClick={() => {
              useViews.setState({ compareId: p.b });
              void loadBuiltin(p.a);
            }}
          >
            {t(p.key)}
          </button>
        ))}
      </div>
      <div className="compare__axis" style={{ paddingLeft: labelW }}>
        <svg ref={axisRef} width={width} height={AXIS_H} aria-hidden="true">
          <g />
        </svg>
      </div>
      {run && (
        <div className="compare__side">
          <div className="compare__side-head">
            <VerdictBadge run={run} testId="compare-verdict-a" />
            <strong>{mainTitle}</strong>
            <span className="compare__at" data-testid="compare-at-a">
              {t('compare.at', { i: cursor + 1, n: run.trace.events.length, t: cursorT })}
            </span>
          </div>
          <Lanes run={run} {...scale} label={mainTitle} testId="compare-lanes-a" />
        </div>
      )}
      <div className="compare__side">
        {other.run ? (
          <>
            <div className="compare__side-head">
              <VerdictBadge run={other.run} testId="compare-verdict-b" />
              <strong>{titleOf(compareId)}</strong>
              <span className="compare__at" data-testid="compare-at-b">
                {t('compare.at', {
                  // 1-based, as the transport counts: 0 is before the first event
                  i: otherIndex + 1,
                  n: other.run.trace.events.length,
                  t: other.run.trace.events[otherIndex]?.t ?? 0,
                })}
              </span>
            </div>
            <Lanes
              run={other.run}
              {...scale}
              label={titleOf(compareId) ?? compareId}
              testId="compare-lanes-b"
            />
          </>
        ) : (
          <p className="compare__at">{other.failed ? t('compare.failed') : t('run.running')}</p>
        )}
      </div>
      {mode !== 'timeline' && run && other.run && (
        <div className="compare__topos">
          <TopologyView run={run} index={cursor} testId="compare-topology-a" />
          <TopologyView run={other.run} index={otherIndex} testId="compare-topology-b" />
        </div>
      )}
    </section>
  );
}
