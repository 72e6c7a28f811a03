import { useMemo, useState } from 'react';
import type { IncidentInfo } from '../../engine/scenario/builtins/types';
import { loadBuiltin } from '../controller';
import { useT } from '../hooks/useT';
import { usePick } from '../hooks/usePick';
import { searchBuiltins } from '../scenario-search';
import { usePlayground } from '../store';

/** How many matches the list shows; the count says how many there are. */
const SHOWN = 40;

/** The release as a short tag ("3.11.6", "3.11.x–3.12.0"); empty when the thread names none. */
const releaseTag = (i: IncidentInfo) =>
  /^\d[\d.x–-]*/.exec(i.pairOf ? (i.fixedIn ?? '') : i.reported)?.[0] ?? '';

/**
 * Search the built-ins by symptom: an exception, a word of the symptom, a release, in English or
 * 中文. The matches list under the box; choosing one loads it, as the picker does.
 */
export function ScenarioSearch() {
  const t = useT();
  const { lang, builtins } = usePick(usePlayground, 'lang', 'builtins');
  const [query, setQuery] = useState('');
  // The list closes when focus leaves the search (a click elsewhere) and comes back with it.
  const [focused, setFocused] = useState(false);
  const hits = useMemo(() => searchBuiltins(builtins, query), [builtins, query]);
  const open = focused && query.trim().length > 0;
  const title = (b: (typeof builtins)[number]) => (lang === 'zh' && b.titleZh ? b.titleZh : b.title);
  return (
    <div
      className="search"
      role="search"
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <input
        type="search"
        className="search__input"
        data-testid="scenario-search"
        aria-label={t('search.label')}
        placeholder={t('search.placeholder')}
        value={query}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && query) {
            e.preventDefault();
            setQuery('');
          }
        }}
      />
      {open && (
        <div className="search__results" data-testid="scenario-search-results">
          <p className="search__count" aria-live="polite">
            {t('search.count', { n: hits.length })}
          </p>
          <ul>
            {hits.slice(0, SHOWN).map((b) => (
              <li key={b.id}>
                <button
                  type="button"
                  data-id={b.id}
                  onClick={() => {
                    setQuery('');
                    void loadBuiltin(b.id);
                  }}
                >
                  <span className="search__title">{title(b)}</span>
                  {b.incident && (
                    <span className="search__meta">
                      {b.incident.pairOf && !b.incident.fixedIn
                        ? t('incident.remedyBadge')
                        : t(b.incident.pairOf ? 'incident.pairBadge' : 'incident.badge', {
                            release: releaseTag(b.incident),
                          })}
                    </span>
                  )}
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
