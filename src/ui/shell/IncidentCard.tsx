import { loadBuiltin } from '../controller';
import type { BuiltinInfo } from '../engine-adapter';
import { useT } from '../hooks/useT';
import type { Lang } from '../i18n';
import { usePlayground } from '../store';
import { GlossaryText } from './Glossary';

/** "https://github.com/redisson/redisson/issues/2468" → "#2468"; other sites by their host. */
export function linkLabel(url: string): string {
  const gh = /^https:\/\/github\.com\/redisson\/redisson\/(?:issues|pull)\/(\d+)/.exec(url);
  if (gh) return `#${gh[1]}`;
  const other = /^https:\/\/github\.com\/([^/]+\/[^/]+)\/(?:issues|pull)\/(\d+)/.exec(url);
  if (other) return `${other[1]}#${other[2]}`;
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * A real incident beside its run: where it was reported and on which release, what the user saw,
 * why (as the maintainers explained it), and the paired run on the fixed release or with the remedy.
 */
export function IncidentCard({ builtin, lang }: { builtin: BuiltinInfo; lang: Lang }) {
  const t = useT();
  const builtins = usePlayground((s) => s.builtins);
  const info = builtin.incident;
  if (!info) return null;
  const pairId = info.pair ?? info.pairOf;
  const pair = pairId ? builtins.find((b) => b.id === pairId) : undefined;
  const isAnswer = info.pairOf !== undefined;
  const pairLabel = isAnswer
    ? /^\d/.test(info.reported)
      ? t('incident.backToReported', { release: info.reported })
      : t('incident.back')
    : info.fixedIn
      ? t('incident.runFixed', { release: info.fixedIn })
      : t('incident.runRemedy');
  return (
    <section className="incident" data-testid="incident-card" aria-label={t('incident.label')}>
      <p className="incident__meta">
        <span className="incident__badge">{t('group.incidents')}</span>{' '}
        <span data-testid="incident-release">
          {info.reported === 'any'
            ? t('incident.reportedAny')
            : info.reported === 'not stated'
              ? t('incident.reportedNone')
              : t('incident.reported', { release: info.reported })}
        </span>
        {info.fixedIn && <> · {t('incident.fixedIn', { release: info.fixedIn })}</>} ·{' '}
        {info.links.map((url, i) => (
          <span key={url}>
            {i > 0 && ', '}
            <a href={url} target="_blank" rel="noreferrer noopener" data-testid="incident-link">
              {linkLabel(url)}
            </a>
          </span>
        ))}
      </p>
      <p className="incident__row">
        <strong>{t('incident.symptom')}</strong> <GlossaryText text={info.symptom[lang]} />
      </p>
      <p className="incident__row">
        <strong>{t('incident.cause')}</strong> <GlossaryText text={info.cause[lang]} />
      </p>
      {pair && (
        <button
          type="button"
          className="btn incident__pair"
          data-testid="incident-pair"
          onClick={() => void loadBuiltin(pair.id)}
        >
          {pairLabel}
        </button>
      )}
    </section>
  );
}
