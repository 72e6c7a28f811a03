/**
 * Presenter mode (LA8): the lanes a step marks and the panel it cites must show together on a
 * projector. The timeline's lane box is capped (42vh beside a cited panel, 62vh without); when the
 * marked lanes span more than that (a cluster's threads above and shard 3's lanes below), the box
 * grows by what the screen has left under the cited panel (or under the box, when nothing is
 * cited), then by what the cited panel can give up: it scrolls inside, down to MIN_CITED px, and
 * always ends on the screen. Undone when the step changes.
 */

/** the least a cited panel keeps: its title and two rows */
const MIN_CITED = 110;
const CITED = 'html.cite-keys [data-testid="keyspace"], html.cite-script [data-testid="script-view"]';

/** Makes room for the marked lanes and keeps the cited panel on the screen. */
export function roomForMarked(box: HTMLElement, marked: readonly HTMLElement[]): void {
  if (!document.documentElement.classList.contains('presenter')) return;
  const cited = document.querySelector<HTMLElement>(CITED);
  const floor = window.innerHeight - 8;
  if (marked.length > 0) {
    const boxTop = box.getBoundingClientRect().top - box.scrollTop;
    const top = Math.min(...marked.map((el) => el.getBoundingClientRect().top - boxTop));
    const bottom = Math.max(...marked.map((el) => el.getBoundingClientRect().bottom - boxTop));
    const need = bottom - top + 8 - box.clientHeight;
    const below = (cited ?? box).getBoundingClientRect().bottom;
    const give = cited ? Math.max(0, cited.getBoundingClientRect().height - MIN_CITED) : 0;
    // what the screen has left below (negative when the panel already runs past it), plus what
    // the panel can give up
    const extra = Math.min(need, floor - below + give);
    if (extra > 0) box.style.maxHeight = `${box.clientHeight + extra}px`;
  }
  if (cited) {
    const r = cited.getBoundingClientRect();
    if (r.bottom > floor) cited.style.maxHeight = `${Math.max(MIN_CITED, r.height - (r.bottom - floor))}px`;
  }
}

/** Gives the lane box and the cited panel their stylesheet's caps back. */
export function releaseRoom(): void {
  for (const el of document.querySelectorAll<HTMLElement>(
    '.timeline__scroll, [data-testid="keyspace"], [data-testid="script-view"]',
  ))
    el.style.maxHeight = '';
}
