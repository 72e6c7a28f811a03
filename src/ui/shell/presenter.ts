/**
 * Presenter mode, one implementation for the playground and the lessons: the store's `presenter`,
 * the `presenter` class on <html> (canvas and CSS read it), and `?present=1` in the address so a
 * link opens the projector view. The lessons' slide layout keys off the same flag.
 */
import { useEffect } from 'react';
import { usePlayground } from '../store';
import { isPresent } from '../url-state';
import './presenter.css';

/** The address with `present=1` set or dropped, everything else kept. */
export function withPresent(href: string, on: boolean): string {
  const url = new URL(href);
  if (on) url.searchParams.set('present', '1');
  else url.searchParams.delete('present');
  return url.toString();
}

export function setPresenter(on: boolean): void {
  if (usePlayground.getState().presenter === on) return;
  usePlayground.setState({ presenter: on });
  const next = withPresent(window.location.href, on);
  if (next !== window.location.href) history.replaceState(history.state, '', next);
}

export function togglePresenter(): void {
  setPresenter(!usePlayground.getState().presenter);
}

/** Once, at the root: reads `?present=1`, mirrors the flag onto <html>, Escape leaves. */
export function usePresenterMode(): void {
  const on = usePlayground((s) => s.presenter);
  useEffect(() => {
    usePlayground.setState({ presenter: isPresent(window.location.search) });
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || !usePlayground.getState().presenter) return;
      // An open menu or dialog takes its own Escape first.
      if (document.querySelector('details[open], dialog[open]')) return;
      setPresenter(false);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    document.documentElement.classList.toggle('presenter', on);
  }, [on]);
}
