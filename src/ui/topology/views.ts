/**
 * Which views the playground shows: the timeline, the topology diagram or both, and the
 * scenario compared with the current one (a built-in id; null when not comparing). Its own small
 * store, read by the view switch, the URL (`&g=`, `&k=`) and the compare panel.
 */
import { create } from 'zustand';
import type { LinkExtras } from '../url-state';

export type ViewMode = 'timeline' | 'topology' | 'both';

export interface ViewsState {
  mode: ViewMode;
  compareId: string | null;
}

export const useViews = create<ViewsState>()(() => ({ mode: 'timeline', compareId: null }));

/** What the views add to a share link. */
export function linkViews(): Pick<LinkExtras, 'layout' | 'compare'> {
  const { mode, compareId } = useViews.getState();
  return { layout: mode === 'timeline' ? undefined : mode, compare: compareId ?? undefined };
}

/** A link opened: its views, or the plain timeline when it names none. */
export function applyLinkViews(link: Pick<LinkExtras, 'layout' | 'compare'>): void {
  useViews.setState({ mode: link.layout ?? 'timeline', compareId: link.compare ?? null });
}
