import { useState } from 'react';
import { useT } from '../hooks/useT';
import { usePlayground } from '../store';
import { GlossaryText } from './Glossary';
import { oracleChecks } from '../oracle_checks';
import { IncidentCard } from './IncidentCard';

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
      {builtin && !modified && <OracleChecked id={builtin.id} />}
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
      {builtin?.incident && <IncidentCard builtin={builtin} lang={lang} />}
    </div>
  );
}

/**
 * "Checked against Redisson … and redis-server …": one line per comparison level, from the
 * recordings the recordings test holds the model to (ui/oracle_checks.ts).
 */
function OracleChecked({ id }: { id: string }) {
  const t = useT();
  const checks = oracleChecks(id);
  if (checks.length === 0) return null;
  const levels = (['exact', 'invariants'] as const).filter((l) => checks.some((c) => c.level === l));
  return (
    <>
      {levels.map((level) => {
        const of = checks.filter((c) => c.level === level);
        return (
          <p key={level} className="intro__checked" data-testid="oracle-checked">
            {t('intro.checked', {
              releases: of.map((c) => c.release).join(t('intro.checked.sep')),
              redis: [...new Set(of.map((c) => c.redisServer))].join(t('intro.checked.sep')),
              what: t(level === 'exact' ? 'intro.checked.exact' : 'intro.checked.invariants'),
            })}
          </p>
        );
      })}
    </>
  );
}
