/**
 * A lesson step's highlights on the playground's own DOM: the lanes, keys and script lines it
 * names get a class, and the rows it marks are brought into view in their panels.
 */
import { useEffect } from 'react';
import { keyMatches } from '../../lessons/key-pattern';
import type { Highlights } from '../../lessons/types';
import { usePlayground } from '../store';
import { releaseRoom, roomForMarked } from './lane-room';

/**
 * Marks the step's lanes, keys and script lines in the playground's own components by a class
 * on their DOM, so the timeline and the inspectors need no lesson code; re-applied whenever
 * they re-render.
 */
export function useHighlightDom(h: Highlights | undefined): void {
  useEffect(() => {
    const lanes = new Set(h?.lanes ?? []);
    const keys = h?.keys ?? [];
    const lines = new Set(h?.script?.lines ?? []);
    // presenter mode folds the cluster shards the step does not name (Timeline, layout.ts)
    usePlayground.setState({ laneFocus: h?.lanes ?? [] });
    const apply = () => {
      for (const el of document.querySelectorAll<HTMLElement>('.lane-label')) {
        const id = el.querySelector('.lane-label__btn')?.firstChild?.textContent ?? '';
        el.classList.toggle('lesson-hl', lanes.has(id));
      }
      for (const el of document.querySelectorAll<HTMLElement>('.ks__key')) {
        const name = keyNameOf(el);
        el.classList.toggle(
          'lesson-hl',
          keys.some((k) => keyMatches(k, name)),
        );
      }
      // the nodes it talks about: their lanes named, or holding a key it names (presenter mode
      // shows only these in the cited keyspace, learn.css)
      for (const el of document.querySelectorAll<HTMLElement>('.ks__node')) {
        const named = lanes.has(el.dataset.node ?? '') || el.querySelector('.ks__key.lesson-hl') !== null;
        el.classList.toggle('lesson-node', named);
      }
      for (const el of document.querySelectorAll<HTMLElement>('[data-testid="script-view"] .lua__line')) {
        el.classList.toggle('lesson-hl', lines.has(Number(el.querySelector('.lua__no')?.textContent)));
      }
    };
    let frame = 0;
    const observer = new MutationObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(apply);
    });
    const root = document.querySelector('.app__body') ?? document.body;
    observer.observe(root, { childList: true, subtree: true });
    apply();
    // The lanes the step talks about are scrolled into the timeline's view (a projector's timeline
    // shows fewer lanes than a cluster has) once the step's layout has settled; then the reader
    // scrolls freely.
    const timers =
      lanes.size + lines.size + keys.length === 0
        ? []
        : [0, 300, 800].map((ms) => setTimeout(showMarked, ms));
    return () => {
      observer.disconnect();
      for (const id of timers) clearTimeout(id);
      cancelAnimationFrame(frame);
      releaseRoom();
      usePlayground.setState({ laneFocus: [] });
      for (const el of document.querySelectorAll('.lesson-hl')) el.classList.remove('lesson-hl');
      for (const el of document.querySelectorAll('.lesson-node')) el.classList.remove('lesson-node');
    };
  }, [h]);
}

/** A keyspace row's key (its whole name, the shown one may be cut), without the hash slot. */
function keyNameOf(row: HTMLElement): string {
  if (row.dataset.key !== undefined) return row.dataset.key;
  const th = row.querySelector('th');
  const all = th?.textContent ?? '';
  const slot = th?.querySelector('.ks__slot')?.textContent ?? '';
  return slot !== '' && all.endsWith(slot) ? all.slice(0, -slot.length) : all;
}

/**
 * Scrolls a box so its marked rows show, the lowest ones first when they do not all fit (a step
 * names the node lanes below the threads; the script lines below its comment header).
 */
function showRows(box: HTMLElement | null, marked: HTMLElement[]): void {
  if (box === null || marked.length === 0 || box.scrollHeight <= box.clientHeight) return;
  const top = box.getBoundingClientRect().top - box.scrollTop;
  const last = Math.max(...marked.map((el) => el.getBoundingClientRect().bottom - top));
  // the least scroll that shows the lowest marked row: all of them whenever they fit
  box.scrollTop = Math.max(0, last - box.clientHeight + 8);
}

/** The lanes and the script lines a step marks, scrolled into their boxes' view. */
function showMarked(): void {
  const lanes = document.querySelector<HTMLElement>('.timeline__scroll');
  const marked = lanes ? [...lanes.querySelectorAll<HTMLElement>('.lane-label.lesson-hl')] : [];
  if (lanes) roomForMarked(lanes, marked);
  showRows(lanes, marked);
  const lines = [
    ...document.querySelectorAll<HTMLElement>('[data-testid="script-view"] .lua__line.lesson-hl'),
  ];
  // the code scrolls inside the panel, and on a projector the panel inside its own box: both move
  const panel = lines[0]?.closest<HTMLElement>('[data-testid="script-view"]') ?? null;
  showInPanel(lines, panel);
  // a projector's keyspace is a box of its own: the keys a step cites were below its fold when
  // other nodes' keys came first (crossslot's master-3)
  const keys = [...document.querySelectorAll<HTMLElement>('[data-testid="keyspace"] .ks__key.lesson-hl')];
  showKeys(keys, keys[0]?.closest<HTMLElement>('[data-testid="keyspace"]') ?? null);
}

/** A key's row and, below it, the rows of its value (a hash's first fields), up to the next key. */
function withValue(key: HTMLElement, most = 4): HTMLElement[] {
  const rows = [key];
  for (
    let r = key.nextElementSibling;
    r instanceof HTMLElement && rows.length <= most;
    r = r.nextElementSibling
  ) {
    if (r.classList.contains('ks__key')) break;
    rows.push(r);
  }
  return rows;
}

/**
 * The marked keys with their values in view: a step cites what a key holds (lock-family 3's
 * `mode = read` and its two readers sat below the fold under `rw`). When they do not all fit, the
 * first marked key (and its node's name) goes to the top of the box rather than out of it.
 */
function showKeys(keys: HTMLElement[], panel: HTMLElement | null): void {
  if (keys.length === 0 || panel === null) return;
  showInPanel(
    keys.flatMap((k) => withValue(k)),
    panel,
  );
  // the first marked key, with its node's name when it is that node's first key (which node holds
  // the token at 34 in choosing-a-lock 5)
  const card = keys[0].closest<HTMLElement>('.ks__node');
  const first = card?.querySelector('.ks__key') === keys[0] ? card : keys[0];
  for (let box = keys[0].parentElement; box !== null; box = box.parentElement) {
    if (getComputedStyle(box).overflowY !== 'visible') {
      // below the panel's header, which stays on top of its box on a projector
      const header = box === panel ? panel.querySelector('h3')?.getBoundingClientRect().bottom : undefined;
      const top = Math.max(box.getBoundingClientRect().top, header ?? -Infinity);
      const above = top - first.getBoundingClientRect().top;
      if (above > 0) box.scrollTop -= above + 4;
    }
    if (box === panel) break;
  }
}

/** Scrolls every scrolling box from the rows up to `panel` so the rows show. */
function showInPanel(rows: HTMLElement[], panel: HTMLElement | null): void {
  for (let box = rows[0]?.parentElement ?? null; box !== null && panel !== null; box = box.parentElement) {
    if (getComputedStyle(box).overflowY !== 'visible') showRows(box, rows);
    if (box === panel) break;
  }
}
