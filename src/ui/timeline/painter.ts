/**
 * A minimal drawing surface so the same timeline code paints the screen (canvas, fast) and the
 * SVG export (vector, for slides and papers).
 */
export interface Painter {
  rect(x: number, y: number, w: number, h: number, fill: string, stroke?: string): void;
  line(x1: number, y1: number, x2: number, y2: number, stroke: string, width?: number, dash?: number[]): void;
  poly(points: [number, number][], fill: string): void;
  text(
    x: number,
    y: number,
    s: string,
    color: string,
    opts?: { size?: number; bold?: boolean; align?: CanvasTextAlign },
  ): void;
  circle(x: number, y: number, r: number, fill: string, stroke?: string): void;
  /** draw anything still batched; called once at the end of a paint */
  flush?(): void;
}

export const FONT = "system-ui, -apple-system, 'Segoe UI', 'PingFang SC', 'Noto Sans CJK SC', sans-serif";

/**
 * Lines and dots are batched per style into one path each and stroked at flush(): thousands of
 * renewal ticks then cost one stroke() instead of thousands, which keeps zooming smooth.
 */
export class CanvasPainter implements Painter {
  private lastFill = '';
  private readonly lines = new Map<string, Path2D>();
  private readonly dots = new Map<string, Path2D>();

  constructor(private readonly ctx: CanvasRenderingContext2D) {}

  private fill(color: string) {
    if (color !== this.lastFill) {
      this.ctx.fillStyle = color;
      this.lastFill = color;
    }
  }

  rect(x: number, y: number, w: number, h: number, fill: string, stroke?: string) {
    const c = this.ctx;
    this.fill(fill);
    c.fillRect(x, y, w, h);
    if (stroke) {
      c.strokeStyle = stroke;
      c.lineWidth = 1;
      c.strokeRect(x + 0.5, y + 0.5, Math.max(0, w - 1), Math.max(0, h - 1));
    }
  }

  line(x1: number, y1: number, x2: number, y2: number, stroke: string, width = 1, dash?: number[]) {
    const key = `${stroke}|${width}|${dash ? dash.join(',') : ''}`;
    let path = this.lines.get(key);
    if (!path) this.lines.set(key, (path = new Path2D()));
    path.moveTo(x1, y1);
    path.lineTo(x2, y2);
  }

  poly(points: [number, number][], fill: string) {
    if (points.length < 3) return;
    const c = this.ctx;
    this.fill(fill);
    c.beginPath();
    c.moveTo(points[0][0], points[0][1]);
    for (let i = 1; i < points.length; i++) c.lineTo(points[i][0], points[i][1]);
    c.closePath();
    c.fill();
  }

  text(
    x: number,
    y: number,
    s: string,
    color: string,
    opts: { size?: number; bold?: boolean; align?: CanvasTextAlign } = {},
  ) {
    const c = this.ctx;
    this.fill(color);
    c.font = `${opts.bold ? '600 ' : ''}${opts.size ?? 11}px ${FONT}`;
    c.textAlign = opts.align ?? 'left';
    c.textBaseline = 'middle';
    c.fillText(s, x, y);
  }

  circle(x: number, y: number, r: number, fill: string, stroke?: string) {
    const key = `${fill}|${stroke ?? ''}`;
    let path = this.dots.get(key);
    if (!path) this.dots.set(key, (path = new Path2D()));
    path.moveTo(x + r, y);
    path.arc(x, y, r, 0, Math.PI * 2);
  }

  flush() {
    const c = this.ctx;
    for (const [key, path] of this.lines) {
      const [stroke, width, dash] = key.split('|');
      c.strokeStyle = stroke;
      c.lineWidth = Number(width);
      c.setLineDash(dash ? dash.split(',').map(Number) : []);
      c.stroke(path);
    }
    c.setLineDash([]);
    for (const [key, path] of this.dots) {
      const [fill, stroke] = key.split('|');
      c.fillStyle = fill;
      c.fill(path);
      if (stroke) {
        c.strokeStyle = stroke;
        c.lineWidth = 1;
        c.stroke(path);
      }
    }
    this.lines.clear();
    this.dots.clear();
    this.lastFill = '';
  }
}

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (v: number) => (Math.round(v * 10) / 10).toString();

export class SvgPainter implements Painter {
  readonly parts: string[] = [];

  rect(x: number, y: number, w: number, h: number, fill: string, stroke?: string) {
    this.parts.push(
      `<rect x="${n(x)}" y="${n(y)}" width="${n(Math.max(0, w))}" height="${n(Math.max(0, h))}" fill="${fill}"${stroke ? ` stroke="${stroke}"` : ''}/>`,
    );
  }

  line(x1: number, y1: number, x2: number, y2: number, stroke: string, width = 1, dash?: number[]) {
    this.parts.push(
      `<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke="${stroke}" stroke-width="${width}"${dash ? ` stroke-dasharray="${dash.join(' ')}"` : ''}/>`,
    );
  }

  poly(points: [number, number][], fill: string) {
    this.parts.push(
      `<polygon points="${points.map(([x, y]) => `${n(x)},${n(y)}`).join(' ')}" fill="${fill}"/>`,
    );
  }

  text(
    x: number,
    y: number,
    s: string,
    color: string,
    opts: { size?: number; bold?: boolean; align?: CanvasTextAlign } = {},
  ) {
    const anchor =
      opts.align === 'center' ? 'middle' : opts.align === 'right' || opts.align === 'end' ? 'end' : 'start';
    this.parts.push(
      `<text x="${n(x)}" y="${n(y)}" fill="${color}" font-size="${opts.size ?? 11}"${opts.bold ? ' font-weight="600"' : ''} text-anchor="${anchor}" dominant-baseline="middle">${esc(s)}</text>`,
    );
  }

  circle(x: number, y: number, r: number, fill: string, stroke?: string) {
    this.parts.push(
      `<circle cx="${n(x)}" cy="${n(y)}" r="${n(r)}" fill="${fill}"${stroke ? ` stroke="${stroke}"` : ''}/>`,
    );
  }
}
