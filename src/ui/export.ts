/** Downloads: the trace as JSON, the timeline as SVG (vector, from the same drawing code) and PNG. */
import type { Lang } from './i18n';
import { translate } from './i18n';
import { drawTimeline } from './timeline/draw';
import { computeLayout } from './timeline/layout';
import type { LaneModel } from './timeline/model';
import { CanvasPainter, FONT, SvgPainter } from './timeline/painter';
import type { RunView } from './store';

const LABEL_W = 112;
const EXPORT_W = 1400;

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
  };
}

export function timelineSvg(model: LaneModel, lang: Lang): string {
  const layout = computeLayout(model);
  const p = new SvgPainter();
  const w = EXPORT_W - LABEL_W;
  p.parts.push(`<g transform="translate(${LABEL_W},0)">`);
  drawTimeline(p, model, layout, linearX(model, w), w, labelsFor(lang));
  p.parts.push('</g>');
  for (const r of layout.rows) if (r.id) p.text(6, r.y + r.h / 2, r.id, '#111827', { size: 11, bold: true });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${EXPORT_W}" height="${layout.height}" font-family="${FONT.replace(/"/g, "'")}">${p.parts.join('')}</svg>`;
}

export function exportSvg(run: RunView, lang: Lang): void {
  download('lockscope-timeline.svg', new Blob([timelineSvg(run.model, lang)], { type: 'image/svg+xml' }));
}

export function exportPng(run: RunView, lang: Lang): void {
  const layout = computeLayout(run.model);
  const scale = 2;
  const c = document.createElement('canvas');
  c.width = EXPORT_W * scale;
  c.height = layout.height * scale;
  const ctx = c.getContext('2d');
  if (!ctx) return;
  ctx.scale(scale, scale);
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, EXPORT_W, layout.height);
  const p = new CanvasPainter(ctx);
  for (const r of layout.rows) if (r.id) p.text(6, r.y + r.h / 2, r.id, '#111827', { size: 11, bold: true });
  ctx.translate(LABEL_W, 0);
  const w = EXPORT_W - LABEL_W;
  drawTimeline(p, run.model, layout, linearX(run.model, w), w, labelsFor(lang));
  c.toBlob((b) => b && download('lockscope-timeline.png', b), 'image/png');
}
