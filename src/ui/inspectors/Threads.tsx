import { describeEvent } from '../describe-event';
import { useT } from '../hooks/useT';
import type { MessageKey } from '../i18n';
import { eventAt } from '../run-outline';
import { usePlayground } from '../store';
import { compareThreadIds } from '../timeline/model';
import { nameOwners, NO_OWNERS } from '../timeline/owners';
import { capList } from './list-cap';
import { holdsText } from './thread-holds';

/** The event at the cursor; apart from the table so only this follows every frame of playback. */
function EventBox() {
  const t = useT();
  const ev = usePlayground((s) => (s.run ? eventAt(s.run, s.cursor) : undefined));
  const owners = usePlayground((s) => s.run?.model.owners ?? NO_OWNERS);
  const lang = usePlayground((s) => s.lang);
  const d = ev ? describeEvent(ev, lang) : null;
  // in 中文 each field's raw form is on hover, as the trace writes it
  const raw = ev && lang === 'zh' ? describeEvent(ev).details : d?.details;
  return (
    <div className="event-box">
      {ev && d ? (
        <>
          {/* in 中文 the kind's name, the trace's own kind beside it; in English the kind, said in words on hover */}
          <strong title={lang === 'zh' ? undefined : d.name}>
            {d.at} · {lang === 'zh' ? d.name : ev.kind}
          </strong>
          {lang === 'zh' && (
            <code className="event-box__kind muted" style={{ fontSize: 10, marginLeft: 4 }} title={ev.kind}>
              {ev.kind}
            </code>
          )}
          {d.who && <strong> · {nameOwners(d.who, owners)}</strong>}
          {d.details.map((x, i) => (
            <div key={i} className="event-box__detail" title={raw?.[i]}>
              {nameOwners(x, owners, true)}
            </div>
          ))}
        </>
      ) : (
        <span className="muted">{t('inspect.noEvent')}</span>
      )}
    </div>
  );
}

/** The rows in the timeline's lane order (D34), any thread without a lane after them. */
export function inLaneOrder<T>(
  rows: [string, T][],
  lanes: readonly { id: string }[] | undefined,
): [string, T][] {
  const at = new Map((lanes ?? []).map((l, i) => [l.id, i]));
  const pos = (id: string) => at.get(id) ?? Number.MAX_SAFE_INTEGER;
  return rows.slice().sort((a, b) => pos(a[0]) - pos(b[0]) || compareThreadIds(a[0], b[0]));
}

/** Thread states and hold counts at the cursor, the protected resource, and the event itself. */
export function Threads() {
  const t = useT();
  const visible = usePlayground((s) => s.visible);
  const lanes = usePlayground((s) => s.run?.model.threads);
  const { listed: threads, total } = capList(
    visible ? inLaneOrder(Object.entries(visible.threads), lanes) : [],
  );
  return (
    <section className="panel panel--threads" aria-labelledby="th-h">
      <h3 id="th-h">{t('inspect.event')}</h3>
      <EventBox />
      <h3>{t('inspect.threads')}</h3>
      <div className="panel__scroll">
        <table className="threads">
          <thead>
            <tr>
              <th scope="col">{t('inspect.thread')}</th>
              <th scope="col">{t('inspect.state')}</th>
              <th scope="col">{t('inspect.holds')}</th>
            </tr>
          </thead>
          <tbody>
            {threads.map(([id, th]) => (
              <tr key={id}>
                <th scope="row">{id}</th>
                <td>
                  <span className={`state state--${th.state}`}>{t(`state.${th.state}` as MessageKey)}</span>
                </td>
                <td>
                  {holdsText(th)}
                  {th.replying && (
                    <div className="threads__partial" data-testid="replying-holds">
                      {t('inspect.replying', { lock: th.replying.lock, n: th.replying.holds })}
                    </div>
                  )}
                  {th.leases && (
                    <div className="threads__partial" data-testid="partial-holds">
                      {t('inspect.partial', { keys: th.leases.join(', ') })}
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {total > threads.length && (
          <p className="muted" data-testid="threads-more">
            {t('inspect.moreThreads', { shown: threads.length, total })}
          </p>
        )}
      </div>
      {visible && (
        <p className="resource">
          <span className="muted">{t('inspect.resource')}: </span>
          {t('inspect.resourceLine', {
            value: visible.resource.value,
            accepted: visible.resource.accepted,
            rejected: visible.resource.rejected,
          })}
        </p>
      )}
    </section>
  );
}
