import { useState } from 'react';
import { useT } from '../hooks/useT';
import { usePlayground } from '../store';
import { GlossaryText } from './Glossary';

/**
 * What the scenario is about, in the reader's language: the built-in's text or the scenario's own.
 * An edited built-in keeps its text, under a note saying it was modified from it.
 */
export function ScenarioIntro() {
  const t = useT();
  // On a short screen (1024×768) the text is cut to two lines so the timeline and the event
  // details fit together (D29); the whole text is one click away.
  const [expanded, setExpanded] = useState(false);
  const lang = usePlayground((s) => s.lang);
  const builtin = usePlayground((s) => s.builtins.find((b) => b.id === (s.builtinId ?? s.originId)));
  const modified = usePlayground((s) => s.builtinId === null);
  const scenario = usePlayground((s) => s.scenario) as {
    title?: unknown;
    titleZh?: unknown;
    description?: unknown;
  } | null;
  const builtinTitle = builtin && ((lang === 'zh' && builtin.titleZh) || builtin.title);
  const title = builtinTitle || (lang === 'zh' && scenario?.titleZh) || scenario?.title;
  const text = builtin
    ? (lang === 'zh' && builtin.descriptionZh) || builtin.description
    : scenario?.description;
  if (typeof title !== 'string' && typeof text !== 'string') return null;
  return (
    <div className={expanded ? 'intro intro--expanded' : 'intro'} data-testid="intro">
      {typeof title === 'string' && <h2 className="intro__title">{title}</h2>}
      {modified && builtinTitle && (
        <p className="intro__modified" data-testid="modified-note">
          {t('intro.modified', { title: builtinTitle })}
        </p>
      )}
      {typeof text === 'string' && (
        <>
          <p className="intro__text">
            <GlossaryText text={text} />
          </p>
          <button
            type="button"
            className="intro__more"
            aria-expanded={expanded}
            onClick={() => setExpanded(!expanded)}
          >
            {expanded ? t('intro.less') : t('intro.more')}
          </button>
        </>
      )}
    </div>
  );
}
