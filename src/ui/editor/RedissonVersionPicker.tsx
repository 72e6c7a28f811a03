import { memo, useEffect, useId, useState } from 'react';
import { REDISSON_LATEST, resolveRelease } from '../../engine/redisson/release_names';
import type { TraitText } from '../../engine/redisson/versions';
import { loadScenario } from '../controller';
import { engineClient } from '../engine-client';
import { useT } from '../hooks/useT';
import { getPath, setPath } from '../../engine/scenario/edit';
import { usePlayground } from '../store';

/**
 * The scenario's `redisson.version` as a choice among the releases where the model's behaviour
 * changes, and what the chosen release does (versions.ts `traitsFor`), in the current language.
 * Both come from the engine worker, which holds versions.ts's table: the choices with its `init`
 * answer, the table for a release when it is shown.
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
  const [releases, setReleases] = useState<readonly string[]>([]);
  useEffect(() => {
    let live = true;
    engineClient.init().then(
      (init) => live && setReleases(init.releases),
      () => undefined, // the page says so already (controller.ts boot)
    );
    return () => void (live = false);
  }, []);
  const [open, setOpen] = useState(false);
  const [traits, setTraits] = useState<{ version: string; rows: TraitText[] } | null>(null);
  useEffect(() => {
    if (!open || traits?.version === version) return;
    let live = true;
    engineClient.traits(version).then(
      (rows) => live && setTraits({ version, rows }),
      () => undefined, // nothing to list: the summary still names the release
    );
    return () => void (live = false);
  }, [open, version, traits]);
  // A version typed in the JSON (or an alias such as "3.27") stays selectable as it is.
  const options = [REDISSON_LATEST, ...releases];
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
      <details className="redisson-version__traits" onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>{t('editor.versionTraits', { release })}</summary>
        <dl aria-label={t('editor.versionTraits', { release })}>
          {(traits?.version === version ? traits.rows : []).map((tr) => (
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
