/**
 * The page's side of lesson links, in the first-screen bundle (tiny): `#lesson=<id>&step=<n>`
 * on load or pasted into an open tab (hashchange) opens the lesson (`?present=1`, the presenter, is shell/presenter.ts's).
 */
import { lazy, useEffect } from 'react';
import { setLang } from '../controller';
import { useLearn } from '../store';
import { decodeLessonHash } from '../url-state';

export function useLessonLinks(): void {
  useEffect(() => {
    const open = () => {
      const link = decodeLessonHash(window.location.hash);
      if (link === null) return;
      if (link.lang) setLang(link.lang, false);
      useLearn.setState({
        view: 'lesson',
        lessonId: link.lesson,
        step: link.step,
        predict: link.predict === true,
        path: link.path ?? null,
      });
    };
    open();
    window.addEventListener('hashchange', open);
    return () => window.removeEventListener('hashchange', open);
  }, []);
}

const view = () => import('./LearnView');
export const LessonIndex = lazy(() => view().then((m) => ({ default: m.LessonIndex })));
export const LessonPanel = lazy(() => view().then((m) => ({ default: m.LessonPanel })));
export const WhereView = lazy(() => view().then((m) => ({ default: m.WhereView })));
