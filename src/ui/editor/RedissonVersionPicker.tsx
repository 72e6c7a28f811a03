import { memo, useId } from 'react';
import {
  BEHAVIOUR_CHANGES,
  REDISSON_LATEST,
  resolveRelease,
  traitsFor,
} from '../../engine/redisson/versions';
import { loadScenario } from '../controller';
import { useT } from '../hooks/useT';
import { getPath, setPath } from '../../engine/scenario/edit';
import { usePlayground } from '../store';

/**
 * The scenario's `redisson.version` as a choice among the releases where the model's behaviour
 * changes, and what the chosen release does (versions.ts `traitsFor`), in the current language.
 */
export const RedissonVersionPicker = memo(function RedissonVersionPicker() {
  const t = useT();
  const lang = usePlayground((s) => s.lang);
  // the version alone: an edit of anything else does not render the picker and its traits again
  const current = usePlayground((s) => getPath(s.scenario, ['redisson', 'version']));
  const loaded = usePlayground((s) => s.scenario !== null);
  const id = useId();
  const version = typeof current === 'string' ? current : REDISSON_LATEST;
  const release = resolveRelease(version);
  // A version typed in the JSON (or an alias such as "3.27") stays selectable as it is.
  const options = [REDISSON_LATEST, ...BEHAVIOUR_CHANGES];
  if (!options.includes(version)) options.push(version);
  const label = (v: string) =>
    v === REDISSON_LATEST
      ? t('editor.versionLatest', { release: resolveRelease(v) })
      : v === resolveRelease(v)
        ? v
        : `${v} (${resolveRelease(v)})`;
  const pick = (v: string) => {
    const scenario = usePlayground.getState().scenario;
    if (v === version || scenario === null) return;
    void loadScenario(setPath(scenario, ['redisson', 'version'], v), { keepTime: true, onInvalid: 'issues' });
  };
  return (
    <div className="form__field redisson-version">
      <label htmlFor={id}>{t('editor.version')}</label>
      {/* Until the first scenario has loaded there is nothing to rewrite, and a pick would be lost. */}
      <select id={id} value={version} disabled={!loaded} onChange={(e) => pick(e.target.value)}>
        {options.map((v) => (
          <option key={v} value={v}>
            {label(v)}
          </option>
        ))}
      </select>
      <details className="redisson-version__traits">
        <summary>{t('editor.versionTraits', { release })}</summary>
        <dl aria-label={t('editor.versionTraits', { release })}>
          {traitsFor(version).map((tr) => (
            <div key={tr.id} data-trait={tr.id}>
              <dt>{lang === 'zh' ? tr.zh : tr.en}</dt>
              <dd>{lang === 'zh' ? tr.valueZh : tr.value}</dd>
            </div>
          ))}
        </dl>
      </details>
    </div>
  );
});
