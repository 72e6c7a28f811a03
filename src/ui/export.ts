/**
 * Downloads: the trace as JSON, the timeline as SVG (vector, from the same drawing code) and PNG.
 * The images are slide-ready (D26): a title (scenario and verdict), a time axis, the lanes with
 * their names and new roles, the violations tagged V1/V2/V3/L1, and the legend of the marks used.
 */
import { ticks } from 'd3-array';
import type { Lang } from './i18n';
import { translate } from './i18n';
import { drawTimeline, textWidth } from './timeline/draw';
import { computeLayout, violationRows, type Layout } from './timeline/layout';
import { legendItems } from './timeline/legend-items';
import type { LaneModel } from './timeline/model';
import { COLORS } from './timeline/palette';
import { tickLabel } from './timeline/tick-label';
import { CanvasPainter, FONT, SvgPainter, type Painter } from './timeline/painter';
import type { RunView } from './store';
import { cutNote, shownVerdict, VERDICT_LABEL, type ShownVerdict } from './shell/shown-verdict';
import { isLiveness } from '../engine/trace/types';

const LABEL_W = 150;
const EXPORT_W = 1400;
const TITLE_H = 40;
const AXIS_H = 26;
const LEGEND_ROW_H = 22;
const NOTE_SIZE = 13;
const NOTE_LINE_H = 18;
/** the cut badge's brown (app.css .verdict--cut) */
const NOTE_COLOR = '#78350f';

/**
 * What the image says above the lanes: the scenario's title and the run's verdict, and under them
 * `note`, why a run was cut short (an image has no tooltip, so it says what the badge's does).
 */
export interface ExportMeta {
  title?: string;
  verdict?: ShownVerdict;
  note?: string;
}

/**
 * `text` in lines no wider than `width`: Latin text breaks at a space, Chinese (which has none)
 * between any two characters.
 */
export function wrapLines(text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const ch of text) {
    if (line === '' && ch === ' ') continue;
    if (textWidth(line + ch, size) <= width) {
      line += ch;
      continue;
    }
    const space = line.lastIndexOf(' ');
    if (ch !== ' ' && ch.charCodeAt(0) <= 0x2e80 && space > 0) {
      lines.push(line.slice(0, space));
      line = line.slice(space + 1) + ch;
    } else {
      lines.push(line.trimEnd());
      line = ch === ' ' ? '' : ch;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The title block: its note's lines and its height (the axis and the lanes start below it). */
function headOf(meta: ExportMeta) {
  const note = meta.note ? wrapLines(meta.note, NOTE_SIZE, EXPORT_W - 20) : [];
  return { note, height: TITLE_H + note.length * NOTE_LINE_H };
}

function download(name: string, blob: Blob) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}

export function exportTraceJson(run: RunView): void {
  download(
    'lockscope-trace.json',
    new Blob([JSON.stringify(run.trace, null, 2)], { type: 'application/json' }),
  );
}

function linearX(model: LaneModel, width: number) {
  const span = model.tEnd * 1.02 || 1;
  return (t: number) => 6 + (t / span) * (width - 16);
}

function labelsFor(lang: Lang) {
  return {
    threads: translate(lang, 'timeline.threads'),
    nodes: translate(lang, 'timeline.nodes'),
    down: translate(lang, 'inspect.down'),
    failover: (node: string | null) =>
      node === null
        ? translate(lang, 'timeline.failoverRunning')
        : translate(lang, 'timeline.failover', { node }),
  };
}

/** The legend's rows, flowed across the width: [y offset, items] per row. */
function legendRows(model: LaneModel, lang: Lang, width: number) {
  const rows: { x: number; text: string; color: string; fill?: string; shape: string }[][] = [[]];
  let x = 0;
  for (const it of legendItems(model)) {
    const text = translate(lang, it.key);
    const w = 22 + textWidth(text, 12) + 16;
    if (x + w > width && x > 0) {
      rows.push([]);
      x = 0;
    }
    rows[rows.length - 1].push({ x, text, color: it.color, fill: it.fill, shape: it.shape });
    x += w;
  }
  return rows;
}

function roleOf(model: LaneModel, id: string): string | null {
  const lane = model.nodes.find((n) => n.id === id);
  const last = lane?.roles[lane.roles.length - 1]?.role ?? lane?.role;
  return !last || id.startsWith(last) ? null : last;
}

/** Paints the title, axis, lane names, lanes and violation tags; the size comes from exportSize. */
interface Shift {
  enter(dx: number, dy: number): void;
  leave(): void;
}

function svgShift(p: SvgPainter): Shift {
  return {
    enter: (dx, dy) => p.parts.push(`<g transform="translate(${dx},${dy})">`),
    leave: () => p.parts.push('</g>'),
  };
}

function paintExport(
  p: Painter,
  model: LaneModel,
  layout: Layout,
  lang: Lang,
  meta: ExportMeta,
  shift: Shift,
) {
  const w = EXPORT_W - LABEL_W;
  const x = linearX(model, w);
  const head = headOf(meta);
  p.rect(0, 0, EXPORT_W, exportSize(model, layout, lang, meta).height, '#ffffff');
  const title = [meta.title, meta.verdict ? translate(lang, VERDICT_LABEL[meta.verdict]) : undefined].filter(
    Boolean,
  );
  if (title.length > 0)
    p.text(
      10,
      TITLE_H / 2,
      title.length === 2
        ? translate(lang, 'export.title', { title: title[0]!, verdict: title[1]! })
        : title[0]!,
      meta.verdict === 'unsafe' ? COLORS.violationEdge : '#111827',
      { size: 18, bold: true },
    );
  head.note.forEach((line, i) =>
    p.text(10, TITLE_H + i * NOTE_LINE_H + 2, line, NOTE_COLOR, { size: NOTE_SIZE }),
  );
  // Time axis.
  const ay = head.height + AXIS_H - 4;
  p.line(LABEL_W, ay, EXPORT_W - 4, ay, '#9ca3af', 1);
  p.text(10, ay - 8, translate(lang, 'export.time'), COLORS.header, { size: 12 });
  for (const t of ticks(0, model.tEnd, 10)) {
    const tx = LABEL_W + x(t);
    p.line(tx, ay - 4, tx, ay, '#9ca3af', 1);
    p.text(tx, ay - 12, tickLabel(t, (key, params) => translate(lang, key, params)), COLORS.header, {
      size: 12,
      align: 'center',
    });
  }
  const top = head.height + AXIS_H;
  // Lane names (a promoted node with its new role).
  for (const r of layout.rows) {
    if (!r.id) continue;
    const name =
      r.kind === 'sentinels'
        ? translate(lang, model.sentinels?.kind === 'cluster' ? 'timeline.clusterBus' : 'timeline.sentinels')
        : r.id;
    const role = r.kind === 'node' ? roleOf(model, r.id) : null;
    const cy = top + r.y + r.h / 2;
    p.text(6, role ? cy - 8 : cy, name, '#111827', { size: 12, bold: true });
    if (role) p.text(6, cy + 8, `→ ${role}`, COLORS.roleTag, { size: 12, bold: true });
  }
  shift.enter(LABEL_W, top);
  drawTimeline(p, model, layout, x, w, labelsFor(lang));
  // Violation tags, as on screen.
  for (const v of model.violations) {
    const vx = x(v.from);
    const rows = v.lanes ? [layout.byId.get(v.lanes[0])].filter((r) => r !== undefined) : [];
    const vy = rows.length > 0 ? rows[0].y : violationRows(v, layout).top;
    p.rect(vx, vy, 28, 17, isLiveness(v.kind) ? COLORS.stuckEdge : COLORS.violationEdge);
    p.text(vx + 4, vy + 9, v.kind, '#ffffff', { size: 12, bold: true });
  }
  shift.leave();
}

function paintLegend(p: Painter, model: LaneModel, layout: Layout, lang: Lang, meta: ExportMeta) {
  const y0 = headOf(meta).height + AXIS_H + layout.height + 10;
  legendRows(model, lang, EXPORT_W - 20).forEach((row, i) => {
    const cy = y0 + i * LEGEND_ROW_H + LEGEND_ROW_H / 2;
    for (const it of row) {
      const sx = 10 + it.x;
      if (it.shape === 'tick' || it.shape === 'short-tick')
        p.line(sx + 7, cy - 7, sx + 7, cy + 7, it.color, 2);
      else if (it.shape === 'dash') p.line(sx, cy, sx + 16, cy, it.color, 2, [3, 2]);
      else if (it.shape === 'dot') p.circle(sx + 7, cy, 4, it.color);
      else if (it.shape === 'ring' || it.shape === 'refused') p.circle(sx + 7, cy, 4.5, '#fff', it.color);
      else if (it.shape === 'cross') {
        p.line(sx + 3, cy - 4, sx + 11, cy + 4, it.color, 2);
        p.line(sx + 3, cy + 4, sx + 11, cy - 4, it.color, 2);
      } else if (it.shape === 'diamond')
        p.poly(
          [
            [sx + 7, cy - 6],
            [sx + 13, cy],
            [sx + 7, cy + 6],
            [sx + 1, cy],
          ],
          it.fill ?? it.color,
        );
      else if (it.shape === 'triangle')
        p.poly(
          [
            [sx + 1, cy - 5],
            [sx + 13, cy - 5],
            [sx + 7, cy + 6],
          ],
          it.color,
        );
      else p.rect(sx, cy - 6, 16, 12, it.fill ?? it.color, it.color);
      p.text(sx + 22, cy, it.text, '#374151', { size: 12 });
    }
  });
}

function exportSize(model: LaneModel, layout: Layout, lang: Lang, meta: ExportMeta) {
  const legend = legendRows(model, lang, EXPORT_W - 20).length * LEGEND_ROW_H;
  return { width: EXPORT_W, height: headOf(meta).height + AXIS_H + layout.height + 20 + legend };
}

export function timelineSvg(model: LaneModel, lang: Lang, meta: ExportMeta = {}): string {
  const layout = computeLayout(model);
  const p = new SvgPainter();
  paintExport(p, model, layout, lang, meta, svgShift(p));
  paintLegend(p, model, layout, lang, meta);
  const { width, height } = exportSize(model, layout, lang, meta);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="${FONT.replace(/"/g, "'")}">${p.parts.join('')}</svg>`;
}

/** The title block of a run's image: its title, its verdict as the page shows it, why it was cut. */
/**
 * The image's title block. `title`: the title the page shows the run under (a built-in's in the
 * reader's language, Header.tsx); without it the scenario's own, in the reader's language when it
 * has one.
 */
export function exportMeta(run: Pick<RunView, 'scenario' | 'trace'>, lang: Lang, title?: string): ExportMeta {
  const note = cutNote(run.trace, (key, params) => translate(lang, key, params));
  const own = (lang === 'zh' && run.scenario.titleZh) || run.scenario.title;
  return { title: title ?? own, verdict: shownVerdict(run.trace), ...(note ? { note } : {}) };
}

export function exportSvg(run: RunView, lang: Lang, title?: string): void {
  download(
    'lockscope-timeline.svg',
    new Blob([timelineSvg(run.model, lang, exportMeta(run, lang, title))], { type: 'image/svg+xml' }),
  );
}

export function exportPng(run: RunView, lang: Lang, title?: string): void {
  const layout = computeLayout(run.model);
  const meta = exportMeta(run, lang, title);
  const { width, height } = exportSize(run.model, layout, lang, meta);
  const scale = 2;
  const c = document.createElement('canvas');
  c.width = width * scale;
  c.height = height * scale;
  const ctx = c.getContext('2d');
  if (!ctx) return;
  ctx.scale(scale, scale);
  const p = new CanvasPainter(ctx);
  // The lanes are painted through a translated context: what is batched is drawn before each move.
  paintExport(p, run.model, layout, lang, meta, {
    enter(dx, dy) {
      p.flush();
      ctx.save();
      ctx.translate(dx, dy);
    },
    leave() {
      p.flush();
      ctx.restore();
    },
  });
  paintLegend(p, run.model, layout, lang, meta);
  p.flush();
  c.toBlob((b) => b && download('lockscope-timeline.png', b), 'image/png');
}
