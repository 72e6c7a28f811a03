/**
 * Under a step: how it differs from the tutorials' older Redisson (LA5), and a switch that re-runs
 * the step with the release a tutorial shows, so its script stands beside the one the step uses.
 */
import { useId } from 'react';
import { resolveRelease } from '../../engine/redisson/release_names';
import type { Step } from '../../lessons/types';
import { useT } from '../hooks/useT';
import type { Lang } from '../i18n';
import { Markdown } from './Markdown';
import { showRelease, usePlayer } from './player';

/** The release a step's scenario asks for ("latest" and the short forms resolved). */
function ownRelease(scenario: unknown): string {
  const v = (scenario as { redisson?: { version?: unknown } } | undefined)?.redisson?.version;
  return resolveRelease(typeof v === 'string' ? v : undefined);
}

export function TutorialsBox({ step, scenario, lang }: { step: Step; scenario: unknown; lang: Lang }) {
  const t = useT();
  const id = useId();
  const release = usePlayer((s) => s.release);
  if (step.tutorials === undefined) return null;
  const own = ownRelease(scenario);
  const others = (step.tutorialsReleases ?? []).filter((r) => resolveRelease(r) !== own);
  return (
    <div className="lesson__tutorials" data-testid="lesson-tutorials">
      <strong>{t('learn.tutorials')}</strong> <Markdown text={step.tutorials[lang]} />
      {others.length > 0 && (
        <span className="lesson__release">
          <label htmlFor={id}>{t('learn.release')}</label>{' '}
          <select
            id={id}
            data-testid="lesson-release"
            value={release ?? ''}
            onChange={(e) => void showRelease(e.target.value === '' ? null : e.target.value)}
          >
            <option value="">{t('learn.releaseOwn', { release: own })}</option>
            {others.map((r) => (
              <option key={r} value={r}>
                {t('learn.releaseOther', { release: resolveRelease(r) })}
              </option>
            ))}
          </select>
        </span>
      )}
    </div>
  );
}
