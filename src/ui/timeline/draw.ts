/**
 * Paints the lane model. Pure function of (model, layout, x scale, visible time range): the
 * caller decides when to repaint (zoom, resize, new trace), never per animation frame.
 */
import { SENTINEL_LANE, subRows, violationRows, type Layout, type Row } from './layout';
import type { LaneModel, SentinelLane } from './model';
import { BAND_COLOR, COLORS, MARK_COLOR, SENTINEL_COLOR } from './palette';
import type { Painter } from './painter';
import { isLiveness } from '../../engine/trace/types';

/** Beyond this many arrows in view, arrivals are marked instead of drawn as arrows. */
const MAX_FULL_ARROWS = 150;

/** The smallest text the timeline draws, at the default size: readable from the back of a room. */
export const MIN_TEXT_PX = 12;

export interface DrawLabels {
  threads: string;
  nodes: string;
  down: string;
  /** the Sentinels' failover band: "failover → {node}" */
  failover?: (promoted: string | null) => string;
  /** a role as the page names it ("master", 主节点); the trace's word without it */
  role?: (role: string) => string;
  /** the row of the keys a node lane draws together (NodeLane.moreKeys): "+ {n} more keys …" */
  moreKeys?: (names: number, peak: number) => string;
}

/** Width of `s` at `size` px, without a canvas: generous, so a label never runs past its room. */
export function textWidth(s: string, size: number): number {
  let w = 0;
  for (const ch of s) w += ch.charCodeAt(0) > 0x2e80 ? 1 : 0.62;
  return w * size;
}

export function drawTimeline(
  p: Painter,
  model: LaneModel,
  layout: Layout,
  x: (t: number) => number,
  width: number,
  labels: DrawLabels,
  /** only rows meeting this vertical range are painted (the scroll viewport) */
  yRange: [number, number] = [0, Infinity],
  /**
   * whether a mark's label may go left of its mark at the right edge; not in predict mode, where it
   * would leave the veil over the future (a write's token shown left of the cursor)
   */
  flipLabels = true,
): void {
  const rowVisible = (r: { y: number; h: number }) => r.y + r.h >= yRange[0] && r.y <= yRange[1];
  const fs = MIN_TEXT_PX * layout.scale;
  const t0 = xInverse(x, 0);
  const t1 = xInverse(x, width);
  const visible = (a: number, b: number) => b >= t0 && a <= t1;
  const clampX = (v: number) => Math.max(-2, Math.min(width + 2, v));

  // Lane backgrounds and headers.
  layout.rows.forEach((r, i) => {
    if (!rowVisible(r)) return;
    if (r.kind === 'header-threads' || r.kind === 'header-nodes') {
      p.rect(0, r.y, width, r.h, COLORS.laneAlt);
      p.text(6, r.y + r.h / 2, r.kind === 'header-threads' ? labels.threads : labels.nodes, COLORS.header, {
        size: fs,
        bold: true,
      });
    } else if (r.kind === 'header-shard') {
      // a rule above the group (its name is in the label column): the shard reads as one block
      p.rect(0, r.y, width, r.h, COLORS.laneAlt);
      p.line(0, r.y + 0.5, width, r.y + 0.5, COLORS.header, 1);
    } else {
      p.rect(0, r.y, width, r.h, i % 2 ? COLORS.laneBg : COLORS.laneAlt);
    }
  });

  const shade = (spans: readonly { from: number; to: number }[], color: string) => {
    for (const s of spans) {
      if (!visible(s.from, s.to)) continue;
      const a = clampX(x(s.from));
      p.rect(a, 0, clampX(x(s.to)) - a, layout.height, color);
    }
  };
  shade(model.partitions, COLORS.partition);
  shade(model.latency, COLORS.latency);

  for (const lane of model.threads) {
    const row = layout.byId.get(lane.id);
    if (!row || !rowVisible(row)) continue;
    const pad = row.h > 14 ? 3 : 1;
    const by = row.y + pad;
    const bh = row.h - pad * 2;
    // Zoomed out, many bands share a pixel column: paint one per column, it looks the same.
    let lastPx = -Infinity;
    for (const b of lane.bands) {
      if (!visible(b.from, b.to)) continue;
      const a = clampX(x(b.from));
      const w = clampX(x(b.to)) - a;
      if (w < 1 && Math.floor(a) === lastPx) continue;
      lastPx = Math.floor(a + w);
      p.rect(a, by, Math.max(1, w), bh, BAND_COLOR[b.kind]);
    }
    lastPx = -Infinity;
    for (const h of lane.holds) {
      if (!visible(h.from, h.to)) continue;
      const a = clampX(x(h.from));
      const w = Math.max(1, clampX(x(h.to)) - a);
      if (w <= 1 && Math.floor(a) === lastPx) continue;
      lastPx = Math.floor(a + w);
      const sh = Math.max(3, Math.round(bh * 0.32));
      p.rect(a, by, w, sh, h.releasing ? COLORS.releasing : COLORS.hold);
      const text = `${h.lock} ×${h.count}`;
      if (!h.releasing && row.h >= 22 * layout.scale && w > textWidth(text, fs) + 6) {
        p.text(a + 3, by + sh + fs / 2 + 1, text, COLORS.hold, { size: fs, bold: true });
      }
    }
    lane.partial.forEach((ps, i) => {
      if (!visible(ps.from, ps.to)) return;
      const a = clampX(x(ps.from));
      const w = Math.max(1, clampX(x(ps.to)) - a);
      const sh = Math.max(3, Math.round(bh * 0.32));
      p.rect(a, by, w, sh, COLORS.partial);
      const text = partialText(ps, lane.partial[i - 1], w, fs);
      if (row.h >= 22 * layout.scale && text !== null)
        p.text(a + 3, by + sh + fs / 2 + 1, text, COLORS.hold, { size: fs });
    });
    // a starved event loop: a strip along the top of each of the client's threads
    for (const sp of lane.starved ?? []) {
      if (!visible(sp.from, sp.to)) continue;
      const a = clampX(x(sp.from));
      p.rect(a, row.y, Math.max(2, clampX(x(sp.to)) - a), 3, COLORS.busyEdge);
    }
    // waiting for a pub/sub slot: a strip along the bottom of the thread's lane
    for (const sp of lane.subWait ?? []) {
      if (!visible(sp.from, sp.to)) continue;
      const a = clampX(x(sp.from));
      p.rect(a, row.y + row.h - 3, Math.max(2, clampX(x(sp.to)) - a), 3, COLORS.subWait);
    }
    // One mark per kind per pixel column (a ring and a cross at the same ms both show), the
    // failures last so nothing covers them.
    const lastPxOf = new Map<string, number>();
    const order = (k: string) =>
      k === 'error' || k === 'refused' || k === 'renew-fail' || k === 'timeout' || k === 'sub-timeout'
        ? 1
        : 0;
    // Zoomed out, poll ticks a pixel apart would fill the lane: keep one every 3 px.
    let lastPoll = -Infinity;
    const marks = lane.marks.filter((m) => m.t >= t0 && m.t <= t1);
    if (marks.some((m) => order(m.kind) === 1)) marks.sort((a, b) => order(a.kind) - order(b.kind));
    const usedPx = new Set<number>();
    for (const m of marks) {
      let mx = x(m.t);
      if (lastPxOf.get(m.kind) === Math.round(mx)) continue;
      lastPxOf.set(m.kind, Math.round(mx));
      // A cross on top of a ring at the same moment would hide inside it: set it beside.
      if ((m.kind === 'error' || m.kind === 'refused') && usedPx.has(Math.round(mx))) mx += 9;
      usedPx.add(Math.round(mx));
      const color = MARK_COLOR[m.kind];
      if (m.kind === 'poll') {
        if (mx - lastPoll < 3) continue;
        lastPoll = mx;
        // a short tick in the lower half: one try, so the back-off reads as the gaps between them
        p.line(mx, row.y + row.h / 2, mx, row.y + row.h - 2, color, 1.5);
      } else if (m.kind === 'timeout' || m.kind === 'sub-timeout')
        p.line(mx, row.y + 1, mx, row.y + row.h - 1, color, 2, [3, 2]);
      else if (m.kind === 'late') p.line(mx, row.y + row.h / 2, mx, row.y + row.h - 2, color, 1.5);
      else if (m.kind === 'renew' || m.kind === 'renew-fail')
        p.line(mx, row.y + 1, mx, row.y + row.h - 1, color, 2);
      else if (m.kind === 'error') {
        const r = Math.min(4, row.h / 3);
        p.line(mx - r, row.y + row.h / 2 - r, mx + r, row.y + row.h / 2 + r, color, 2);
        p.line(mx - r, row.y + row.h / 2 + r, mx + r, row.y + row.h / 2 - r, color, 2);
      } else if (m.kind === 'refused') {
        // a refused write: a ring struck through, its token beside it
        const r = Math.min(4.5, row.h / 3);
        const cy = row.y + row.h / 2;
        p.circle(mx, cy, r, '#fff', color);
        p.line(mx - r * 0.7, cy + r * 0.7, mx + r * 0.7, cy - r * 0.7, color, 1.5);
        const at = markLabelBox(m, mx, row, fs, width, flipLabels);
        if (at) p.text(at.x, at.y + at.h / 2, m.label!, color, { size: fs, bold: true });
      } else if (row.h < 14) p.line(mx, row.y + row.h - 4, mx, row.y + row.h - 1, color, 1.5);
      else if (m.kind === 'wake-timeout')
        p.circle(mx, row.y + row.h / 2, Math.min(4, row.h / 3), '#fff', color);
      else {
        p.circle(mx, row.y + row.h / 2, Math.min(3.5, row.h / 3), color);
        const at = markLabelBox(m, mx, row, fs, width, flipLabels);
        if (at) p.text(at.x, at.y + at.h / 2, m.label!, color, { size: fs, bold: true });
      }
    }
  }

  let maxTtl = 1;
  for (const n of model.nodes)
    for (const k of n.keys) if (k.ttlAtFrom) maxTtl = Math.max(maxTtl, k.ttlAtFrom);
  // A cluster (which node holds which key is its lesson) or several keys in the run: a key's label
  // names it even on a lane that holds only that one, as a lane with several keys does.
  const namedKeys = model.shards !== undefined || new Set(model.nodes.flatMap((n) => n.keyNames)).size > 1;

  for (const lane of model.nodes) {
    const row = layout.byId.get(lane.id);
    if (!row || !rowVisible(row)) continue;
    // Several keys on one node (a MultiLock's parts, a read/write lock's timeout keys): one
    // sub-row each, its label naming the key.
    const subs = Math.max(1, subRows(lane));
    const subH = (row.h - 8) / subs;
    const subOf = new Map(lane.keyNames.map((name, i) => [name, i]));
    const lastKeyPx = new Map<string, number>();
    for (const k of lane.keys) {
      if (!visible(k.from, k.to)) continue;
      const a = x(k.from);
      const b = x(k.to);
      if (b - a < 1 && Math.floor(a) === lastKeyPx.get(k.name)) continue;
      lastKeyPx.set(k.name, Math.floor(b));
      const sub = subOf.get(k.name) ?? 0;
      const top = row.y + 4 + sub * subH;
      const bottom = top + subH - (subs > 1 ? 2 : 0);
      const hh = bottom - top;
      if (k.expireAt === null) {
        p.rect(clampX(a), top, Math.max(1, clampX(b) - clampX(a)), hh, COLORS.keyNoTtl);
      } else {
        // The TTL running down: height is the remaining TTL, relative to the longest lease seen.
        const h0 = (hh * (k.ttlAtFrom ?? 0)) / maxTtl;
        const h1 = (hh * Math.max(0, k.expireAt - k.to)) / maxTtl;
        p.poly(
          [
            [a, bottom],
            [a, bottom - h0],
            [b, bottom - h1],
            [b, bottom],
          ],
          COLORS.key,
        );
        p.line(a, bottom - h0, b, bottom - h1, COLORS.keyEdge, 1);
      }
      p.line(a, top, a, bottom, COLORS.keyEdge, 1);
      const text = subs > 1 || namedKeys ? `${k.name} · ${k.label}` : k.label;
      const room = Math.min(b, width) - Math.max(a, 0);
      if (k.label && room > Math.min(textWidth(text, fs), 60) + 8)
        p.text(Math.max(a, 0) + 4, top + fs / 2 + 1, fitText(text, room - 8, fs), COLORS.keyText, {
          size: fs,
        });
    }
    if (lane.moreKeys) {
      // The keys past MAX_KEY_ROWS: one area whose height is how many of them exist.
      const more = lane.moreKeys;
      const top = row.y + 4 + lane.keyNames.length * subH;
      const hh = subH - 2;
      const peak = Math.max(1, ...more.live.map((l) => l.count));
      for (const l of more.live) {
        if (!visible(l.from, l.to)) continue;
        const a = clampX(x(l.from));
        const h = (hh * l.count) / peak;
        p.rect(a, top + hh - h, Math.max(1, clampX(x(l.to)) - a), h, COLORS.key);
      }
      const text = labels.moreKeys?.(more.names, peak) ?? `+ ${more.names} more keys (up to ${peak} at once)`;
      const tx = Math.max(x(0), 0) + 4;
      p.text(tx, top + fs / 2 + 1, fitText(text, width - tx - 4, fs), COLORS.keyText, {
        size: fs,
        bold: true,
      });
    }
    for (const d of lane.busy ?? []) {
      if (!visible(d.from, d.to)) continue;
      const a = clampX(x(d.from));
      p.rect(a, row.y + 2, Math.max(2, clampX(x(d.to)) - a), row.h - 4, COLORS.busy, COLORS.busyEdge);
    }
    for (const d of lane.down) {
      if (!visible(d.from, d.to)) continue;
      const a = clampX(x(d.from));
      const w = Math.max(2, clampX(x(d.to)) - a);
      p.rect(a, row.y + 2, w, row.h - 4, COLORS.down);
      if (w > textWidth(labels.down, fs) + 8)
        p.text(a + 4, row.y + row.h / 2, labels.down, COLORS.downText, { size: fs, bold: true });
    }
    // A role change is a tag on the lane where it happens ("→ master"), not a loose word.
    for (const r of lane.roles) {
      if (r.from > 0 && r.from >= t0 && r.from <= t1) {
        const rx = x(r.from);
        // a cluster replica promoted takes its master's slots at that moment: the tag says which
        const took = lane.slots?.find((sp) => sp.from === r.from && sp.slots !== '')?.slots;
        const role = labels.role?.(r.role) ?? r.role;
        const text = took === undefined ? `→ ${role}` : `→ ${role} · ${took.replace(/-/g, '–')}`;
        const tw = textWidth(text, fs) + 8;
        // at the right edge the tag hangs leftwards of its line, or the plot would cut it off
        const tx = rx + tw > width ? rx - tw : rx;
        p.line(rx, row.y + 1, rx, row.y + row.h - 1, COLORS.roleTag, 2);
        p.rect(tx, row.y + row.h - fs - 6, tw, fs + 4, COLORS.roleTag);
        p.text(tx + 4, row.y + row.h - fs / 2 - 4, text, '#ffffff', { size: fs, bold: true });
      }
    }
  }

  if (model.sentinels) {
    const row = layout.byId.get(SENTINEL_LANE);
    if (row && rowVisible(row)) drawSentinels(p, model.sentinels, row, layout, x, visible, fs, labels);
  }

  // Many deliveries at once (a hundred waiters) would be a wall of lines: then only the arrival
  // is marked on each receiving lane.
  let inView = 0;
  for (const arrow of model.arrows) if (visible(arrow.t0, arrow.t1)) inView++;
  const dense = inView > MAX_FULL_ARROWS;
  for (const arrow of model.arrows) {
    if (!visible(arrow.t0, arrow.t1)) continue;
    const ra = layout.byId.get(arrow.fromLane);
    const rb = layout.byId.get(arrow.toLane);
    if (!ra || !rb) continue;
    const color = arrow.kind === 'pubsub' ? COLORS.pubsub : COLORS.repl;
    const x1 = x(arrow.t1);
    const y1 = rb.y + rb.h / 2;
    if (dense) {
      if (rowVisible(rb)) p.line(x1, rb.y + 1, x1, rb.y + rb.h - 1, color, 1);
      continue;
    }
    if (!rowVisible({ y: Math.min(ra.y, rb.y), h: Math.abs(ra.y - rb.y) + rb.h })) continue;
    const x0 = x(arrow.t0);
    const y0 = ra.y + ra.h / 2;
    p.line(x0, y0, x1, y1, color, 1.25, arrow.kind === 'repl' ? [3, 2] : undefined);
    const dir = y1 > y0 ? -1 : 1;
    p.poly(
      [
        [x1, y1],
        [x1 - 3, y1 + dir * 6],
        [x1 + 3, y1 + dir * 6],
      ],
      color,
    );
  }

  p.flush?.();
  for (const v of model.violations) {
    if (!visible(v.from, v.to)) continue;
    const a = clampX(x(v.from));
    const w = Math.max(2, clampX(x(v.to)) - a);
    const stuck = isLiveness(v.kind);
    const fill = stuck ? COLORS.stuck : COLORS.violation;
    const edge = stuck ? COLORS.stuckEdge : COLORS.violationEdge;
    if (v.lanes) {
      // Lease lanes need not be adjacent (a replica between two masters): one box per lane.
      for (const id of v.lanes) {
        const r = layout.byId.get(id);
        if (r) p.rect(a, r.y, w, r.h, fill, edge);
      }
      continue;
    }
    const { top, bottom } = violationRows(v, layout);
    p.rect(a, top, w, bottom - top, fill, edge);
  }
  p.flush?.();
}

/**
 * Where a mark's label starts: `gap` px right of the mark, or as far left of it when the plot's
 * right edge would cut it (a token "#1" on the run's last write was clipped to "#").
 */
export function besideX(
  mx: number,
  gap: number,
  text: string,
  size: number,
  width: number,
  flip = true,
): number {
  const w = textWidth(text, size);
  return mx + gap + w <= width || !flip ? mx + gap : mx - gap - w;
}

/**
 * The box of a mark's label (a write's token "#34"): beside the mark, its text's middle where the
 * lane draws it (a refused write's ring is a little larger); null without a label or room for one.
 * The timeline keeps its DOM tags off these boxes.
 */
export function markLabelBox(
  m: { kind: string; label?: string },
  mx: number,
  row: { y: number; h: number },
  fs: number,
  width: number,
  flip = true,
): { x: number; y: number; w: number; h: number } | null {
  if (!m.label || row.h < 18) return null;
  const w = textWidth(m.label, fs);
  if (m.kind === 'refused') {
    const r = Math.min(4.5, row.h / 3);
    return { x: besideX(mx, r + 2, m.label, fs, width, flip), y: row.y + row.h / 2 - r - fs / 2, w, h: fs };
  }
  return { x: besideX(mx, 5, m.label, fs, width, flip), y: row.y + row.h / 2 - 4 - fs / 2, w, h: fs };
}

function xInverse(x: (t: number) => number, px: number): number {
  // x is affine: recover it from two samples rather than threading the scale through.
  const a = x(0);
  const b = x(1000);
  return ((px - a) / (b - a)) * 1000;
}

/**
 * A partial hold's label: the keys held (D3: "l1 + l2"), or when a span too short for them
 * follows another (a MultiLock taking one key after another), only what it adds ("+ seat:3"), so
 * the keys held read left to right; null when not even that fits.
 */
export function partialText(
  span: { from: number; keys: string },
  before: { to: number; keys: string } | undefined,
  room: number,
  size: number,
): string | null {
  const fits = (s: string) => room > textWidth(s, size) + 6;
  if (fits(span.keys)) return span.keys;
  if (before?.to !== span.from) return null;
  const had = new Set(before.keys.split(' + '));
  const added = span.keys.split(' + ').filter((k) => !had.has(k));
  const text = `+ ${added.join(' + ')}`;
  return added.length > 0 && fits(text) ? text : null;
}

/** `s` cut to fit `room` px, with an ellipsis (the full text is in the tooltip). */
export function fitText(s: string, room: number, size: number): string {
  if (textWidth(s, size) <= room) return s;
  let out = s;
  while (out.length > 1 && textWidth(`${out}…`, size) > room) out = out.slice(0, -1);
  return `${out}…`;
}

/**
 * The Sentinels' row: a band while a failover runs (first +sdown to +switch-master) named after the
 * promoted replica, a mark per step (+sdown short and grey, +odown full height, the leader's
 * diamond, the promotion's triangle with a dashed line down to the node it promoted).
 */
function drawSentinels(
  p: Painter,
  s: SentinelLane,
  row: Row,
  layout: Layout,
  x: (t: number) => number,
  visible: (a: number, b: number) => boolean,
  fs: number,
  labels: DrawLabels,
): void {
  const mid = row.y + row.h / 2;
  for (const f of s.failovers) {
    if (!visible(f.from, f.to)) continue;
    const a = x(f.from);
    const w = Math.max(2, x(f.to) - a);
    p.rect(a, row.y + 2, w, row.h - 4, SENTINEL_COLOR.failover, SENTINEL_COLOR.odown);
    const text = labels.failover?.(f.promoted) ?? '';
    if (text && w > textWidth(text, fs) + 8)
      p.text(a + 4, mid, text, COLORS.keyText, { size: fs, bold: true });
  }
  for (const m of s.marks) {
    if (!visible(m.t, m.t)) continue;
    const mx = x(m.t);
    const color = SENTINEL_COLOR[m.kind];
    if (m.kind === 'sdown') p.line(mx, mid, mx, row.y + row.h - 3, color, 1.5);
    else if (m.kind === 'odown') p.line(mx, row.y + 3, mx, row.y + row.h - 3, color, 2);
    else if (m.kind === 'leader')
      p.poly(
        [
          [mx, mid - 6],
          [mx + 5, mid],
          [mx, mid + 6],
          [mx - 5, mid],
        ],
        color,
      );
    else if (m.kind === 'promote') {
      p.poly(
        [
          [mx - 6, mid - 6],
          [mx + 6, mid - 6],
          [mx, mid + 6],
        ],
        color,
      );
      const target = layout.byId.get(m.node);
      if (target) p.line(mx, row.y, mx, target.y + target.h, color, 1.5, [4, 3]);
    } else p.circle(mx, mid, 3, color);
  }
}
