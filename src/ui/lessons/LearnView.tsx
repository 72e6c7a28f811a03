/**
 * The Learn view's components, loaded with import() when a lesson or the index is first opened:
 * the index of lessons, the lesson panel beside the timeline, and where the cursor's thread is
 * in Redisson's code.
 */
import { useEffect, useMemo, useState } from 'react';
import { COURSE_PATHS, coursePath, pathMinutes, pathNeighbour } from '../../lessons/paths';
import { encodeLessonHash } from '../url-state';
import type { Step } from '../../lessons/types';
import { openExplore } from '../explore/store';
import { useT } from '../hooks/useT';
import { usePick } from '../hooks/usePick';
import type { Lang } from '../i18n';
import { PresenterButtons } from '../shell/PresenterButtons';
import { Verdict } from '../shell/Verdict';
import { useLearn, usePlayground } from '../store';
import { OUTLINES, threadAt, whereIs } from './java-outline';
import './learn.css';
import './learn-index.css';
import { useHighlightDom } from './highlight-dom';
import { Markdown } from './Markdown';
import { TutorialsBox } from './TutorialsBox';
import {
  answer,
  backToStep,
  closeLesson,
  forkStep,
  goStep,
  leadsToQuestion,
  lessonLink,
  loadSummaries,
  openLesson,
  syncStep,
  usePlayer,
  watchTask,
} from './player';
import { Task } from './TaskView';
import { addEnglish } from '../i18n';
import { enLearn } from '../i18n/en-learn';

// the strings only this view uses come with its chunk (i18n/en-learn.ts)
addEnglish(enLearn);

const PARTS = [1, 2, 3] as const;

export function LessonIndex() {
  const t = useT();
  const lang = usePlayground((s) => s.lang);
  const { summaries, progress, error } = usePick(usePlayer, 'summaries', 'progress', 'error');
  useEffect(() => {
    void loadSummaries();
  }, []);
  const total = summaries?.reduce((m, l) => m + l.minutes, 0) ?? 0;
  return (
    <main className="learn-index" data-testid="lesson-index">
      <div className="learn-index__head">
        <h2>{t('learn.title')}</h2>
        <button type="button" className="btn" onClick={closeLesson}>
          {t('learn.back')}
        </button>
      </div>
      {error !== null && <p className="learn__error">{error}</p>}
      {summaries === null ? (
        <p className="muted">{t('learn.loading')}</p>
      ) : (
        <>
          <p className="learn-index__intro">{t('learn.courseIntro', { n: summaries.length, min: total })}</p>
          <section className="learn-paths" data-testid="course-paths" aria-label={t('learn.paths')}>
            <h3>{t('learn.paths')}</h3>
            <ul>
              {COURSE_PATHS.map((p) => (
                <li key={p.id}>
                  <a
                    href={encodeLessonHash({
                      lesson: p.stops[0].lesson,
                      step: p.stops[0].steps[0] - 1,
                      path: p.id,
                    })}
                    data-path={p.id}
                  >
                    {p.title[lang]}
                  </a>{' '}
                  <span className="muted">
                    {t('learn.pathMeta', {
                      n: p.stops.reduce((k, s) => k + s.steps.length, 0),
                      min: pathMinutes(p, summaries),
                    })}
                  </span>
                </li>
              ))}
            </ul>
          </section>
          {PARTS.map((part) => (
            <section key={part} className="learn-part" data-part={part}>
              <h3>{t(`learn.part${part}`)}</h3>
              <ol className="learn-index__list">
                {summaries.map((l, i) => {
                  if ((l.part ?? 1) !== part) return null;
                  const p = progress[l.id];
                  const seen = p ? Math.min(p.seen + 1, l.steps) : 0;
                  return (
                    <li key={l.id} className={`learn-card${l.coming ? ' learn-card--coming' : ''}`}>
                      <button
                        type="button"
                        className="learn-card__btn"
                        data-lesson={l.id}
                        onClick={() => openLesson(l.id, p && !p.done ? p.seen : 0)}
                      >
                        <span className="learn-card__no">{i + 1}</span>
                        <span className="learn-card__title">{l.title[lang]}</span>
                        {l.objective && (
                          <span className="learn-card__objective">
                            <Markdown text={l.objective[lang]} />
                          </span>
                        )}
                        <span className="learn-card__meta">
                          {t('learn.minutes', { n: l.minutes })} · {t('learn.steps', { n: l.steps })}
                          {l.coming && <span className="learn-card__badge">{t('learn.coming')}</span>}
                          {p?.done && (
                            <span className="learn-card__badge learn-card__badge--done">
                              {t('learn.done')}
                            </span>
                          )}
                        </span>
                        <span
                          className="learn-card__bar"
                          aria-label={t('learn.progress', { done: seen, n: l.steps })}
                        >
                          <span style={{ width: `${(100 * seen) / Math.max(1, l.steps)}%` }} />
                        </span>
                      </button>
                    </li>
                  );
                })}
              </ol>
            </section>
          ))}
        </>
      )}
    </main>
  );
}

/** Scrolls the card a screenful towards `dir` when it has more there; false when it has not. */
export function revealCard(card: HTMLElement, dir: 1 | -1): boolean {
  const left = dir > 0 ? card.scrollHeight - card.clientHeight - card.scrollTop : card.scrollTop;
  // a few pixels of slack: rounding and the card's own padding are not text left unread
  if (left <= 8) return false;
  // keep two lines of the last screenful in view, so the reader does not lose the place
  card.scrollBy({ top: dir * Math.max(40, card.clientHeight - 60) });
  return true;
}

function typingInto(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el?.tagName) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

/** n / PageDown and p / PageUp: keys the transport (arrows, Space, Home, End) does not use. */
function useLessonKeys(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || typingInto(e.target)) return;
      // A clicker sends PageDown / PageUp: in presenter mode a step card longer than the screen
      // (an answered question's feedback above the step text) is shown a screenful at a time
      // before the clicker goes on, since the teacher has no mouse to scroll it (LA8).
      const card = usePlayground.getState().presenter ? document.querySelector<HTMLElement>('.lesson') : null;
      if (e.key === 'PageDown' && card && revealCard(card, 1)) e.preventDefault();
      else if (e.key === 'PageUp' && card && revealCard(card, -1)) e.preventDefault();
      else if (e.key === 'n' || e.key === 'PageDown') goStep(1);
      else if (e.key === 'p' || e.key === 'PageUp') goStep(-1);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

function Question({ step, n, right, lang }: { step: Step; n: number; right: string[]; lang: Lang }) {
  const t = useT();
  const picked = usePlayer((s) => s.answers[n]);
  const revealing = usePlayer((s) => s.revealing === n);
  const q = step.question!;
  const ok = picked !== undefined && right.includes(picked);
  const why = q.choices.find((c) => c.id === picked)?.why;
  return (
    <div className="lesson__question" data-testid="lesson-question">
      <div className="lesson__label">{t('learn.question')}</div>
      <Markdown text={q.prompt[lang]} />
      <div className="lesson__choices">
        {q.choices.map((c) => (
          <button
            key={c.id}
            type="button"
            data-testid="lesson-choice"
            data-choice={c.id}
            disabled={picked !== undefined}
            className={`lesson__choice${picked === undefined || revealing ? (picked === c.id ? ' lesson__choice--picked' : '') : right.includes(c.id) ? ' lesson__choice--right' : picked === c.id ? ' lesson__choice--wrong' : ''}`}
            aria-pressed={picked === c.id}
            onClick={() => answer(c.id)}
          >
            <Markdown text={c.text[lang]} />
          </button>
        ))}
      </div>
      {picked === undefined && (
        <p className="muted lesson__asking" data-testid="lesson-asking">
          {t('learn.asking')}
        </p>
      )}
      {revealing && (
        <p className="muted lesson__asking" role="status" data-testid="lesson-revealing">
          {t('learn.revealing')}
        </p>
      )}
      {picked !== undefined && !revealing && (
        <div
          className={`lesson__feedback lesson__feedback--${ok ? 'right' : 'wrong'}`}
          data-testid="lesson-feedback"
          data-right={ok}
          role="status"
        >
          <strong>{ok ? t('learn.right') : t('learn.wrong')}</strong>{' '}
          {why && <Markdown className="lesson__why" testId="lesson-why" text={why[lang]} />}
          <Markdown text={q.feedback[lang]} />
        </div>
      )}
    </div>
  );
}

export function LessonPanel() {
  const t = useT();
  const { lang, embed } = usePick(usePlayground, 'lang', 'embed');
  const { lessonId, step: n } = usePick(useLearn, 'lessonId', 'step');
  const { payload, loading, error } = usePick(usePlayer, 'payload', 'loading', 'error');
  const picked = usePlayer((s) => s.answers[n]);
  const revealing = usePlayer((s) => s.revealing === n);
  const summaries = usePlayer((s) => s.summaries);
  const cursor = usePlayground((s) => s.cursor);
  const [copied, setCopied] = useState(false);
  useLessonKeys();
  useEffect(() => watchTask(), []);
  useEffect(() => {
    void syncStep();
    // a new step starts at the top of its card, whatever the clicker revealed of the last one
    document.querySelector('.lesson')?.scrollTo({ top: 0 });
  }, [lessonId, n]);
  const lesson = payload?.lesson.id === lessonId ? payload.lesson : null;
  const step = lesson?.steps[n];
  const info = payload?.steps[n];
  const last = lesson !== null && n === lesson.steps.length - 1;
  useEffect(() => {
    if (last) void loadSummaries();
  }, [last]);
  const pathId = useLearn((s) => s.path);
  const path = coursePath(pathId ?? undefined);
  const pathNext = path && lessonId !== null ? pathNeighbour(path, lessonId, n, 1) : null;
  const at = summaries?.findIndex((l) => l.id === lessonId) ?? -1;
  const courseNext = at >= 0 ? (summaries?.[at + 1] ?? null) : null;
  const nextLesson = path
    ? (summaries?.find(
        (l) => pathNext !== null && pathNext.lesson !== lessonId && l.id === pathNext.lesson,
      ) ?? null)
    : courseNext;
  // Until the course's list has loaded, the last step of a lesson does not know whether another
  // lesson follows: it says nothing rather than "the course is complete" (and Next stays on).
  const courseEnds = path ? pathNext === null : summaries !== null && courseNext === null;
  const asking = step?.question !== undefined && (picked === undefined || revealing);
  // While a prediction is open the step's highlights would point at its answer: they wait for it.
  useHighlightDom(asking ? undefined : step?.highlight);
  // ...and so would the violation rows and the scenario's intro text (app.css, html.asking).
  const waiting = asking && picked === undefined;
  // A step ahead of an unanswered question hides the same things (player.ts, leadsToQuestion).
  const answers = usePlayer((s) => s.answers);
  const prelude = useMemo(
    () => payload !== null && payload.lesson.id === lessonId && leadsToQuestion(payload, n, answers),
    [payload, lessonId, n, answers],
  );
  const otherIntro = step?.hideIntro === true;
  // The panels the step cites: presenter mode shows them beside the lanes (learn.css, LA8).
  const citesKeys = !asking && (step?.highlight?.keys?.length ?? 0) > 0;
  const citesScript = !asking && step?.highlight?.script !== undefined;
  useEffect(() => {
    const html = document.documentElement.classList;
    html.toggle('asking', waiting || prelude);
    html.toggle('nointro', otherIntro);
    html.toggle('cite-keys', citesKeys);
    html.toggle('cite-script', citesScript);
    return () => {
      for (const c of ['asking', 'nointro', 'cite-keys', 'cite-script']) html.remove(c);
    };
  }, [waiting, prelude, otherIntro, citesKeys, citesScript]);

  if (lesson === null || step === undefined || info === undefined) {
    return (
      <aside className="lesson" data-testid="lesson-panel">
        {error !== null ? (
          <>
            <p className="learn__error">{t('learn.unknown', { id: lessonId ?? '', msg: error })}</p>
            <button type="button" className="btn" onClick={closeLesson}>
              {t('learn.back')}
            </button>
          </>
        ) : (
          <p className="muted">{loading ? t('learn.loading') : ''}</p>
        )}
      </aside>
    );
  }
  const total = lesson.steps.length;
  const hideText = asking;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(lessonLink());
    } catch {
      // Clipboard refused: the address bar holds the same link.
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };

  return (
    <aside className="lesson" data-testid="lesson-panel" data-lesson={lesson.id} data-step={n + 1}>
      <div className="lesson__head">
        <h2 className="lesson__title">{lesson.title[lang]}</h2>
        <span className="lesson__count">
          {t('learn.stepOf', { n: n + 1, total })}
          {/* presenter mode hides the header and its verdict, which steps talk about (learn.css) */}
          <Verdict testId="lesson-verdict" className="lesson__verdict" />
        </span>
      </div>
      <div className="lesson__body">
        {step.question !== undefined && info.right !== undefined && (
          <Question step={step} n={n} right={info.right} lang={lang} />
        )}
        {!hideText && <Markdown className="lesson__text" testId="lesson-text" text={step.text[lang]} />}
        {!hideText && info.cursor !== undefined && cursor !== info.cursor && (
          <button
            type="button"
            className="btn btn--small lesson__back"
            data-testid="lesson-back-to-step"
            onClick={backToStep}
          >
            ↺ {t('learn.backToStep')}
          </button>
        )}
        {!hideText && <TutorialsBox step={step} scenario={info.scenario} lang={lang} />}
        {step.teacher !== undefined && !embed && (
          <details className="lesson__teacher" data-testid="lesson-teacher">
            <summary>{t(hideText ? 'learn.teacherSpoiler' : 'learn.teacher')}</summary>
            <Markdown text={step.teacher[lang]} />
          </details>
        )}
        {step.pending !== undefined && <p className="lesson__pending">{t('learn.pending')}</p>}
        {lesson.coming === true && <p className="lesson__pending">{t('learn.comingLesson')}</p>}
        {info.error !== undefined && (
          <p className="learn__error">{t('learn.stepError', { msg: info.error })}</p>
        )}
        {step.task !== undefined && !embed && !hideText && <Task step={step} lang={lang} />}
        {(path ? pathNext === null || nextLesson !== null : n === total - 1 && summaries !== null) && (
          <p className="lesson__end" data-testid="lesson-end" role="note">
            {nextLesson
              ? t('learn.lessonEnd', { title: nextLesson.title[lang] })
              : path
                ? t('learn.pathDone', { title: path.title[lang] })
                : t('learn.courseDone')}
          </p>
        )}
        {step.explore !== undefined && !embed && !hideText && (
          <div className="lesson__explore">
            <Markdown text={step.explore.prompt[lang]} />
            <button
              type="button"
              className="btn btn--small"
              data-testid="lesson-explore"
              onClick={() => {
                const { prompt, ...preset } = step.explore!;
                openExplore(preset, prompt);
              }}
            >
              {t('explore.lesson')}
            </button>
          </div>
        )}
      </div>
      <div className="lesson__nav">
        <button
          type="button"
          className="btn"
          data-testid="lesson-prev"
          disabled={n === 0}
          onClick={() => goStep(-1)}
        >
          ← {t('learn.prev')}
        </button>
        <span className="lesson__dots" aria-hidden="true">
          {lesson.steps.map((_, i) => (
            <span key={i} className={i === n ? 'lesson__dot lesson__dot--on' : 'lesson__dot'} />
          ))}
        </span>
        <button
          type="button"
          className="btn btn--primary"
          data-testid="lesson-next"
          disabled={n === total - 1 && courseEnds}
          onClick={() => goStep(1)}
        >
          {n < total - 1
            ? `${t('learn.next')} →`
            : courseEnds
              ? t('learn.courseEnd')
              : `${t('learn.nextLesson')} →`}
        </button>
      </div>
      <p className="lesson__keys muted">{t('learn.keys')}</p>
      {!embed && (
        <div className="lesson__actions">
          <button type="button" className="btn btn--small" onClick={() => void copy()}>
            {copied ? t('header.copied') : t('learn.copy')}
          </button>
          {info.scenario !== undefined && (
            <button
              type="button"
              className="btn btn--small"
              data-testid="lesson-fork"
              onClick={() => void forkStep()}
            >
              {t('learn.fork')}
            </button>
          )}
          <PresenterButtons className="btn btn--small" testId="lesson-present" />
          <button
            type="button"
            className="btn btn--small"
            onClick={() => useLearn.setState({ view: 'index' })}
          >
            {t('learn.index')}
          </button>
          <button type="button" className="btn btn--small" onClick={closeLesson}>
            {t('learn.close')}
          </button>
        </div>
      )}
    </aside>
  );
}

/** For the thread at the cursor: the pseudo-Java it is in, with its line marked. */
export function WhereView() {
  const t = useT();
  const { lang, run, cursor } = usePick(usePlayground, 'lang', 'run', 'cursor');
  const where = useMemo(() => {
    if (!run) return null;
    const actor = threadAt(run.trace.events, cursor);
    return actor === null ? null : whereIs(run.trace.events, cursor, actor);
  }, [run, cursor]);
  const outline = where ? OUTLINES[where.outline] : null;
  return (
    <section className="panel where" data-testid="lesson-where" aria-labelledby="where-h">
      <h3 id="where-h">
        {t('learn.where')}
        {where && outline && (
          <span className="muted">
            {where.actor} · {lang === 'zh' ? (outline.titleZh ?? outline.title) : outline.title}
          </span>
        )}
      </h3>
      {!where || !outline ? (
        <p className="muted">{t('learn.whereNone')}</p>
      ) : (
        <pre className="lua java" aria-label="Java">
          {outline.lines.map((l, i) => (
            <div
              key={i}
              className={`lua__line${where.line === i ? ' lua__line--current' : ''}`}
              aria-current={where.line === i ? 'step' : undefined}
            >
              <code>{l.code}</code>
              {l.comment && <span className="java__comment">{`// ${l.comment[lang]}`}</span>}
            </div>
          ))}
        </pre>
      )}
    </section>
  );
}
