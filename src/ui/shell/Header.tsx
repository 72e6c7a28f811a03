import { useEffect, useRef, useState } from 'react';
import { currentHash, loadBuiltin, loadScenario, setLang } from '../controller';
import { useT } from '../hooks/useT';
import { usePick } from '../hooks/usePick';
import { GROUP_LABEL, GROUPS, groupOf } from '../scenario-groups';
import { pushError, useLearn, usePlayground, type PlaygroundState } from '../store';
import { MAX_SCENARIO_BYTES, shareUrl } from '../url-state';
import { useViewWindow } from '../view-window';
import { openGlossary } from './Glossary';
import { PresenterButtons } from './PresenterButtons';
import { ScenarioSearch } from './ScenarioSearch';
import { Verdict } from './Verdict';

/** The exports (their SVG painter and legend) load on the first pick from the menu. */
const exporter = () => import('../export');

function useShareHref(): string {
  const { scenario, cursor, originId } = usePick(usePlayground, 'scenario', 'cursor', 'originId');
  const view = useViewWindow((s) => s.view);
  const predict = usePlayground((s) => s.predict);
  const [href, setHref] = useState('');
  useEffect(() => {
    // Debounced: compressing on every frame of playback would be wasted work.
    const id = setTimeout(() => setHref(shareUrl(window.location, currentHash())), 120);
    return () => clearTimeout(id);
  }, [scenario, cursor, originId, view, predict]);
  return href;
}

/** Its own component: it follows the cursor, and the rest of the header should not. */
function ShareLink() {
  const t = useT();
  const href = useShareHref();
  return (
    <a className="header__link" data-testid="share-link" href={href || '#'} title={t('header.shareLink')}>
      <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true">
        <path
          d="M6.5 9.5l3-3M7 4.5l1.2-1.2a2.6 2.6 0 013.5 3.5L10.5 8M9 11.5l-1.2 1.2a2.6 2.6 0 01-3.5-3.5L5.5 8"
          stroke="currentColor"
          strokeWidth="1.6"
          fill="none"
          strokeLinecap="round"
        />
      </svg>
      <span className="sr-only">{t('header.shareLink')}</span>
    </a>
  );
}

export function Header() {
  const t = useT();
  const { lang, builtins, builtinId, originId } = usePick(
    usePlayground,
    'lang',
    'builtins',
    'builtinId',
    'originId',
  );
  // whether there is a run, not which: the header (its picker of every built-in) is not
  // rendered again for each run of an edit
  const hasRun = usePlayground((s) => s.run !== null);
  const withRun = (f: (run: NonNullable<PlaygroundState['run']>) => void) => () => {
    const run = usePlayground.getState().run;
    if (run) f(run);
  };
  const learnView = useLearn((s) => s.view);
  const [copied, setCopied] = useState(false);
  const fileRef = useRef<HTMLInputElement>(null);

  const copy = async () => {
    const link = shareUrl(window.location, currentHash());
    try {
      await navigator.clipboard.writeText(link);
    } catch {
      // Clipboard refused (permissions, insecure context): the link is still in the anchor.
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };

  const onImport = async (file: File | undefined) => {
    if (!file) return;
    try {
      if (file.size > MAX_SCENARIO_BYTES)
        throw new Error(t('error.tooBig', { n: file.size, max: MAX_SCENARIO_BYTES }));
      const json = JSON.parse(await file.text()) as unknown;
      await loadScenario(json, { builtinId: null, origin: null, onInvalid: 'issues' });
    } catch (e) {
      pushError({ key: 'error.import', params: { msg: e instanceof Error ? e.message : String(e) } });
    }
  };

  const title = (b: (typeof builtins)[number]) => (lang === 'zh' && b.titleZh ? b.titleZh : b.title);
  const origin = builtins.find((b) => b.id === originId);
  const current = builtins.find((b) => b.id === builtinId);
  const customLabel = origin ? t('header.modified', { title: title(origin) }) : t('header.custom');
  // an exported image is titled as the page titles the run: a built-in by its title in the
  // reader's language (a changed one, or a custom scenario, by its own: export.ts)
  const shownTitle = current ? title(current) : undefined;

  return (
    <header className="header">
      <div className="header__brand">
        <h1>{t('app.title')}</h1>
        <span className="header__tagline">{t('app.tagline')}</span>
      </div>
      <label className="header__picker">
        <span className="sr-only">{t('header.scenario')}</span>
        <select
          data-testid="scenario-picker"
          aria-label={t('header.scenario')}
          title={current ? title(current) : customLabel}
          value={builtinId ?? ''}
          onChange={(e) => {
            // Hand the keys back to the page: with the picker focused, → loaded the next scenario.
            e.target.blur();
            if (e.target.value) void loadBuiltin(e.target.value);
          }}
        >
          {builtinId === null && <option value="">{customLabel}</option>}
          {GROUPS.map((g) => {
            const items = builtins.filter((b) => groupOf(b) === g);
            if (!items.length) return null;
            return (
              <optgroup key={g} label={t(GROUP_LABEL[g])}>
                {items.map((b) => (
                  <option key={b.id} value={b.id} title={title(b)}>
                    {title(b)}
                  </option>
                ))}
              </optgroup>
            );
          })}
        </select>
      </label>
      <ScenarioSearch />
      <Verdict />
      <div className="header__actions">
        <button
          type="button"
          className="btn"
          data-testid="learn-open"
          aria-pressed={learnView !== 'play'}
          onClick={() =>
            useLearn.setState((l) => ({
              view: l.view !== 'index' ? 'index' : l.lessonId === null ? 'play' : 'lesson',
            }))
          }
        >
          {t('learn.open')}
        </button>
        <button type="button" className="btn" data-testid="glossary-open" onClick={() => openGlossary()}>
          {t('glossary.open')}
        </button>
        <PresenterButtons className="btn" testId="presenter-toggle" />
        <div className="lang-switch" role="group" aria-label={t('lang.switchTo')}>
          <button type="button" aria-pressed={lang === 'en'} onClick={() => setLang('en')}>
            EN
          </button>
          <button type="button" aria-pressed={lang === 'zh'} lang="zh-CN" onClick={() => setLang('zh')}>
            中文
          </button>
        </div>
        <button type="button" className="btn btn--primary" onClick={() => void copy()}>
          {copied ? t('header.copied') : t('header.copyLink')}
        </button>
        <ShareLink />
        <details className="menu">
          <summary className="btn">{t('header.export')}</summary>
          <div className="menu__body">
            <button
              type="button"
              disabled={!hasRun}
              onClick={withRun((run) => void exporter().then((m) => m.exportTraceJson(run)))}
            >
              {t('header.exportTrace')}
            </button>
            <button
              type="button"
              disabled={!hasRun}
              onClick={withRun((run) => void exporter().then((m) => m.exportSvg(run, lang, shownTitle)))}
            >
              {t('header.exportSvg')}
            </button>
            <button
              type="button"
              disabled={!hasRun}
              onClick={withRun((run) => void exporter().then((m) => m.exportPng(run, lang, shownTitle)))}
            >
              {t('header.exportPng')}
            </button>
          </div>
        </details>
        <button type="button" className="btn" data-testid="import" onClick={() => fileRef.current?.click()}>
          {t('header.import')}
        </button>
        <input
          ref={fileRef}
          type="file"
          accept="application/json,.json"
          hidden
          aria-label={t('header.import')}
          onChange={(e) => {
            void onImport(e.target.files?.[0]);
            e.target.value = '';
          }}
        />
      </div>
    </header>
  );
}
