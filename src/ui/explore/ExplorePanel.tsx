/**
 * The Explore panel: options, live progress with cancel, and the outcome (the counterexample's
 * diff, or exactly what was tried when nothing broke). It reads its own store, so progress ticks
 * re-render this panel only.
 */
import { undo } from '../controller';
import { useT } from '../hooks/useT';
import { jumpToViolation, usePlayground } from '../store';
import { violationTitle } from '../timeline/violation-text';
import { describeChange } from './describe';
import { cancelExplore, clampBudget, closeExplore, setOptions, startExplore } from './explore';
import { isSearching, useExplore, type ExploreFound, type ExploreNothing } from './store';
import { addEnglish, hasMessage } from '../i18n';
import { enExplore } from '../i18n/en-explore';

// the strings only this view uses come with its chunk (i18n/en-explore.ts)
addEnglish(enExplore);

type T = ReturnType<typeof useT>;

const seconds = (s: number) => s.toFixed(1);

/** A kind's label, or its engine name for a kind newer than this page's strings. */
function kindLabel(kind: string, t: T): string {
  const key = `explore.kind.${kind}`;
  return hasMessage(key) ? t(key) : kind;
}

/** The options form's number input for `name`; `parse` turns what was typed into the option. */
function NumberField(props: {
  name: 'budget' | 'seed';
  t: T;
  limits: { min?: number; step?: number };
  parse: (typed: number) => number;
}) {
  const { name, parse } = props;
  const value = useExplore((s) => s.options[name]);
  const busy = useExplore(isSearching);
  return (
    <label className="explore__field">
      <span>{props.t(`explore.${name}`)}</span>
      <input
        type="number"
        {...props.limits}
        data-testid={`explore-${name}`}
        value={value}
        disabled={busy}
        onChange={(e) => setOptions({ [name]: parse(Number(e.target.value)) })}
      />
    </label>
  );
}

function Options({ t }: { t: T }) {
  const kinds = useExplore((s) => s.kinds);
  const options = useExplore((s) => s.options);
  const busy = useExplore(isSearching);
  const ready = usePlayground((s) => s.scenario !== null && !s.running);
  const chosen = options.faults;
  const toggle = (kind: string, on: boolean) => {
    const next = on ? [...chosen, kind] : chosen.filter((k) => k !== kind);
    setOptions({ faults: kinds.filter((k) => next.includes(k)) });
  };
  const noKinds = chosen.length === 0;
  return (
    <form
      className="explore__form"
      // the inputs clamp what they take: the browser's validation would only block the submit
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void startExplore();
      }}
    >
      <NumberField name="budget" t={t} limits={{ min: 1 }} parse={clampBudget} />
      <NumberField name="seed" t={t} limits={{ step: 1 }} parse={(n) => Math.trunc(n) || 0} />
      <fieldset className="explore__kinds" disabled={busy}>
        <legend>{t('explore.kinds')}</legend>
        {kinds.map((k) => (
          <label key={k} className="explore__kind">
            <input
              type="checkbox"
              data-kind={k}
              checked={chosen.includes(k)}
              onChange={(e) => toggle(k, e.target.checked)}
            />
            {kindLabel(k, t)}
          </label>
        ))}
      </fieldset>
      <div className="explore__actions">
        {busy ? (
          // Keys: were the Cancel element reused as Start, the click that cancels would submit.
          <button
            key="cancel"
            type="button"
            className="btn"
            data-testid="explore-cancel"
            onClick={cancelExplore}
          >
            {t('explore.cancel')}
          </button>
        ) : (
          <button
            key="start"
            type="submit"
            className="btn btn--primary"
            data-testid="explore-start"
            disabled={!ready || noKinds}
          >
            {t('explore.start')}
          </button>
        )}
        {noKinds && <span className="explore__warn">{t('explore.noKinds')}</span>}
      </div>
    </form>
  );
}

function Progress({ t }: { t: T }) {
  const status = useExplore((s) => s.status);
  const budget = useExplore((s) => s.options.budget);
  if (status.phase !== 'planning' && status.phase !== 'searching' && status.phase !== 'shrinking')
    return null;
  return (
    <div className="explore__progress" role="status" data-testid="explore-progress">
      <div className="explore__phase">{t(`explore.phase.${status.phase}`)}</div>
      <progress max={budget} value={status.phase === 'planning' ? undefined : status.tried} />
      <div className="explore__numbers">
        <span data-testid="explore-tried" data-tried={status.tried}>
          {t('explore.tried', { n: status.tried, budget })}
        </span>
        <span>{t('explore.rate', { n: Math.round(status.perSec) })}</span>
        <span>{t('explore.hits', { n: status.hits })}</span>
        <span className="muted">{t('explore.workers', { n: status.shards })}</span>
      </div>
    </div>
  );
}

function Found({ t, found }: { t: T; found: ExploreFound }) {
  const v = found.violation;
  const { shrunk } = found;
  return (
    <div
      className="explore__result explore__result--found"
      data-testid="explore-found"
      data-kind={v.kind}
      data-from={v.from}
    >
      <p className="explore__headline">
        <span className="violations__kind">{v.kind}</span>{' '}
        {t('explore.found', {
          kind: v.kind,
          lock: v.lock,
          index: found.index,
          tried: found.tried,
          s: seconds(found.seconds),
        })}
      </p>
      <p className="explore__violation">{violationTitle(v, t)}</p>
      <h4 className="explore__diff-title">{t('explore.diff')}</h4>
      <ul className="explore__diff" data-testid="explore-diff">
        {shrunk.changes.map((c, i) => {
          const line = describeChange(c, shrunk, t);
          return (
            <li key={i} className={`explore__change explore__change--${c.kind}`} data-change={c.kind}>
              <span
                className="explore__sign"
                aria-label={t(line.sign === '+' ? 'explore.change.added' : 'explore.change.moved')}
              >
                {line.sign}
              </span>
              {line.text}
            </li>
          );
        })}
      </ul>
      <p className="muted">
        {t('explore.shrunk', { steps: shrunk.steps, first: shrunk.firstChanges, n: shrunk.changes.length })}
      </p>
      <p>{t('explore.opened')}</p>
      <div className="explore__actions">
        <button
          type="button"
          className="btn btn--small"
          onClick={() => {
            const run = usePlayground.getState().run;
            const shown = run?.trace.violations.find((x) => x.kind === v.kind && x.lock === v.lock);
            if (run && shown) jumpToViolation(run.trace, shown);
          }}
        >
          {t('explore.showViolation')}
        </button>
        <button type="button" className="btn btn--small" onClick={() => void undo()}>
          {t('explore.back')}
        </button>
      </div>
    </div>
  );
}

function Nothing({ t, nothing }: { t: T; nothing: ExploreNothing }) {
  const kindList = (ks: readonly string[]) => ks.map((k) => kindLabel(k, t)).join(', ');
  const { scope } = nothing;
  return (
    <div className="explore__result" data-testid="explore-nothing">
      <p className="explore__headline">
        {t('explore.nothing', {
          tried: nothing.tried,
          budget: nothing.budget,
          seed: nothing.seed,
          s: seconds(nothing.seconds),
        })}
      </p>
      <p>
        {scope.kinds.length === 0
          ? t('explore.nothingNone')
          : t('explore.nothingScope', {
              max: scope.maxChanges,
              kinds: kindList(scope.kinds),
              horizon: scope.horizon,
              moments: scope.moments,
              scales: scope.scales.join(', '),
            })}
      </p>
      {scope.inapplicable.length > 0 && (
        <p>{t('explore.inapplicable', { kinds: kindList(scope.inapplicable) })}</p>
      )}
      {scope.baseViolations > 0 && <p>{t('explore.baseViolations')}</p>}
      <p className="explore__caveat">{t('explore.notSafe')}</p>
    </div>
  );
}

function Outcome({ t }: { t: T }) {
  const status = useExplore((s) => s.status);
  switch (status.phase) {
    case 'found':
      return <Found t={t} found={status.found} />;
    case 'nothing':
      return <Nothing t={t} nothing={status.nothing} />;
    case 'cancelled':
      return (
        <p className="explore__result" data-testid="explore-cancelled" role="status">
          {t('explore.cancelled', { n: status.tried })}
        </p>
      );
    case 'error':
      return (
        <p className="explore__result learn__error" role="alert">
          {t('explore.error', { msg: status.message })}
        </p>
      );
    default:
      return null;
  }
}

export function ExplorePanel() {
  const t = useT();
  const lang = usePlayground((s) => s.lang);
  const open = useExplore((s) => s.open);
  const prompt = useExplore((s) => s.prompt);
  if (!open) return null;
  return (
    <section
      id="explore-panel"
      className="explore"
      data-testid="explore-panel"
      aria-label={t('explore.title')}
    >
      <div className="explore__head">
        <h3>{t('explore.title')}</h3>
        <button type="button" className="btn btn--small" onClick={closeExplore}>
          {t('explore.close')}
        </button>
      </div>
      {prompt && <p className="explore__prompt">{prompt[lang]}</p>}
      <p className="explore__intro muted">{t('explore.intro')}</p>
      <Options t={t} />
      <Progress t={t} />
      <Outcome t={t} />
    </section>
  );
}
