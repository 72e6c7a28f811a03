import { lazy, Suspense } from 'react';
import { EditorPanel } from './editor/EditorPanel';
import { useExplore } from './explore/store';
import { useKeyboard } from './hooks/useKeyboard';
import { usePlayback } from './hooks/usePlayback';
import { useT } from './hooks/useT';
import { Console } from './inspectors/Console';
import { LessonIndex, LessonPanel, useLessonLinks, WhereView } from './lessons/links';
import { Keyspace } from './inspectors/Keyspace';
import { ScriptView } from './inspectors/ScriptView';
import { Threads } from './inspectors/Threads';
import { Caption } from './shell/Caption';
import { ErrorBoundary } from './shell/ErrorBoundary';
import { ErrorPanel } from './shell/ErrorPanel';
import { Glossary } from './shell/Glossary';
import { Header } from './shell/Header';
import { usePresenterMode } from './shell/presenter';
import { ScenarioIntro } from './shell/ScenarioIntro';
import { Transport } from './shell/Transport';
import { Verdict } from './shell/Verdict';
import { useLearn, usePlayground } from './store';
import { Timeline } from './timeline/Timeline';
import { Views } from './topology/Views';
import { ViewSwitch } from './topology/ViewSwitch';

// The search's panel, coordinator and diff load when Explore is first opened.
const ExplorePanel = lazy(() => import('./explore/ExplorePanel').then((m) => ({ default: m.ExplorePanel })));

/** A lazily loaded panel, there only `when` it is wanted (its code loads the first time). */
function Later({ when, children }: { when: boolean; children: React.ReactNode }) {
  return when ? <Suspense fallback={null}>{children}</Suspense> : null;
}

function Playground() {
  const t = useT();
  const embed = usePlayground((s) => s.embed);
  const engineReady = usePlayground((s) => s.engineReady);
  const builtins = usePlayground((s) => s.builtins.length);
  const view = useLearn((s) => s.view);
  const present = usePlayground((s) => s.presenter);
  const panels = useLearn((s) => s.panels);
  const exploring = useExplore((s) => s.open);
  usePlayback();
  usePresenterMode();
  useKeyboard();
  useLessonLinks();

  if (embed) {
    return (
      <main className={`app app--embed${view === 'lesson' ? ' app--lesson' : ''}`}>
        <Later when={view === 'lesson'}>
          <LessonPanel />
        </Later>
        <div className="embed__bar">
          <Verdict />
          <a
            href={window.location.href.replace(/([?&])embed=1&?/, '$1').replace(/[?&](#|$)/, '$1')}
            target="_blank"
            rel="noreferrer"
          >
            {t('embed.open')}
          </a>
        </div>
        <ErrorPanel />
        <Timeline />
        <Transport />
      </main>
    );
  }
  return (
    <div
      className={`app${view === 'lesson' ? ' app--lesson' : ''}${present ? ' app--present' : ''}${present && panels ? ' app--panels' : ''}`}
    >
      <Header />
      <Glossary />
      <Later when={view === 'index'}>
        <LessonIndex />
      </Later>
      <div className="app__body" hidden={view === 'index'}>
        <Later when={view === 'lesson'}>
          <LessonPanel />
        </Later>
        <main>
          <ErrorPanel />
          {!engineReady && builtins > 0 && <p className="fixture-note">{t('run.fixture')}</p>}
          <ScenarioIntro />
          <ViewSwitch />
          <Views timeline={<Timeline />} />
          <Transport />
          <Later when={exploring}>
            <ExplorePanel />
          </Later>
          <Caption />
          <div className="inspectors">
            <Keyspace />
            <Threads />
            <ScriptView />
            <Later when={view === 'lesson'}>
              <WhereView />
            </Later>
            <Console />
          </div>
          <EditorPanel />
        </main>
      </div>
    </div>
  );
}

export function App() {
  return (
    <ErrorBoundary>
      <Playground />
    </ErrorBoundary>
  );
}
