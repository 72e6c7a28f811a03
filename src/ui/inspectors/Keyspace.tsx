import { Fragment, useMemo } from 'react';
import { keyHashSlot } from '../../engine/redis/cluster_slots';
import type { KeyView, NodeView } from '../../engine/trace/types';
import { useT } from '../hooks/useT';
import { usePick } from '../hooks/usePick';
import { replyText } from '../reply-view';
import { usePlayground } from '../store';
import { slotsAt } from '../timeline/model';
import { nameOwners, NO_OWNERS, type OwnerNames } from '../timeline/owners';
import { eventAt } from '../run-outline';
import { findScriptContext } from './script-context';
import { capList } from './list-cap';
import { keyNameParts, LONG_KEY, shortKeyName } from './key-name';

/** What `a.localeCompare(b)` without options compares by, built once instead of per call. */
const KEY_ORDER = new Intl.Collator();

function ttlText(k: KeyView, now: number, t: ReturnType<typeof useT>): string {
  if (k.expireAt === null) return t('inspect.noTtl');
  return t('unit.ms', { n: Math.max(0, k.expireAt - now) });
}

/** An owner id as its thread ("A:1"), the id itself on hover (D19). */
function Named({ text, owners }: { text: string; owners: OwnerNames }) {
  const named = nameOwners(text, owners);
  return named === text ? <>{text}</> : <span title={text}>{named}</span>;
}

/**
 * A key's name, owner ids as their thread, a long request id cut in the middle (key-name.ts): the
 * whole name on hover; lines break only after a colon.
 */
function KeyName({ shown, name }: { shown: string; name: string }) {
  return (
    <span title={shown === name ? undefined : name} data-testid="ks-key-name">
      {keyNameParts(shown).map((part, i) => (
        <Fragment key={i}>
          {part}
          <wbr />
        </Fragment>
      ))}
    </span>
  );
}

/** A key's hash slot, in cluster runs only: where the key lives is what a cluster lesson asks. */
function Slot({ keyName }: { keyName: string }) {
  const t = useT();
  return (
    <span className="ks__slot" title={t('inspect.slotHint')} data-testid="ks-slot">
      {t('inspect.slot', { slot: keyHashSlot(keyName) })}
    </span>
  );
}

function KeyRows({
  k,
  now,
  owners,
  cluster,
}: {
  k: KeyView;
  now: number;
  owners: OwnerNames;
  cluster: boolean;
}) {
  const t = useT();
  const ttl = ttlText(k, now, t);
  // with real ids on, the field shows as stored and its thread's name moves to the hover
  const realOwners = usePlayground((s) => s.run?.model.owners ?? NO_OWNERS);
  const title = (f: string) => (owners === realOwners ? f : nameOwners(f, realOwners));
  const shown = shortKeyName(nameOwners(k.key, owners));
  // a long name (the unlock latch's) takes the row's whole width, its type and TTL the row below
  const long = shown.length > LONG_KEY;
  const name = (
    <th scope="row" colSpan={long ? 3 : undefined}>
      <KeyName shown={shown} name={k.key} />
      {cluster && <Slot keyName={k.key} />}
    </th>
  );
  const meta = (
    <>
      <td>
        {/* in 中文 the type's name, Redis's own on hover */}
        <span className="ks__type" title={k.type}>
          {t(`keyType.${k.type}`)}
        </span>
      </td>
      <td className="ks__ttl">{ttl}</td>
    </>
  );
  const head = long ? (
    <>
      <tr className="ks__key ks__key--long" data-key={k.key}>
        {name}
      </tr>
      <tr className="ks__key-meta">
        <td />
        {meta}
      </tr>
    </>
  ) : (
    <tr className="ks__key" data-key={k.key}>
      {name}
      {meta}
    </tr>
  );
  if (k.type === 'string') {
    return (
      <>
        {head}
        <tr className="ks__field">
          <td colSpan={3}>
            <code>
              <Named text={String(k.value)} owners={owners} />
            </code>
          </td>
        </tr>
      </>
    );
  }
  const pairs = (k.value as unknown[]).map((v) => (Array.isArray(v) ? v : [v, '']));
  return (
    <>
      {head}
      {pairs.map(([f, v], i) => (
        <tr key={i} className="ks__field">
          <td>
            <code title={title(String(f))} data-testid="ks-field">
              {nameOwners(String(f), owners)}
            </code>
          </td>
          <td colSpan={2} className="ks__value">
            {String(v)}
          </td>
        </tr>
      ))}
    </>
  );
}

function NodeCard({ id, node, now, cluster }: { id: string; node: NodeView; now: number; cluster: boolean }) {
  const t = useT();
  const lang = usePlayground((s) => s.lang);
  const named = usePlayground((s) => s.run?.model.owners ?? NO_OWNERS);
  const owners = usePlayground((s) => s.realIds) ? NO_OWNERS : named;
  const lane = usePlayground((s) => s.run?.model.nodes.find((n) => n.id === id));
  const slots = cluster && lane ? slotsAt(lane, now) : null;
  const { listed, total } = capList(Object.values(node.keys).sort((a, b) => KEY_ORDER.compare(a.key, b.key)));
  const subs = Object.entries(node.subscriptions ?? {}).filter(([, v]) => v.length > 0);
  return (
    <div className={`ks__node${node.up ? '' : ' ks__node--down'}`} data-node={id}>
      <h4>
        {id}{' '}
        <span className="ks__role" title={node.role}>
          {t(`topo.role.${node.role}`)}
        </span>
        {slots && (
          <span className="ks__slot">{t('timeline.slots', { slots: slots.replace(/-/g, '–') })}</span>
        )}
        {!node.up && <span className="ks__down">{t('inspect.down')}</span>}
      </h4>
      {total === 0 ? (
        <p className="muted">{t('inspect.noKeys')}</p>
      ) : (
        <table className="ks__table">
          <colgroup>
            <col className="ks__c1" />
            {/* a Chinese type name (有序集合) is wider than Redis's own */}
            <col className="ks__c2" style={lang === 'zh' ? { width: '6em' } : undefined} />
            <col className="ks__c3" />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">
                {t('inspect.key')} / {t('inspect.field')}
              </th>
              <th scope="col">{t('inspect.value')}</th>
              <th scope="col">{t('inspect.ttl')}</th>
            </tr>
          </thead>
          <tbody>
            {listed.map((k) => (
              <KeyRows key={k.key} k={k} now={now} owners={owners} cluster={cluster} />
            ))}
          </tbody>
        </table>
      )}
      {total > listed.length && (
        <p className="muted" data-testid="keys-more">
          {t('inspect.moreKeys', { shown: listed.length, total })}
        </p>
      )}
      {subs.length > 0 && (
        <div className="ks__subs">
          <span className="muted">{t('inspect.subscriptions')}:</span>
          {subs.map(([ch, who]) => (
            <div key={ch}>
              <code>{ch}</code> ← {who.join(', ')}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * Stepping through a script: Redis runs it atomically, so the keyspace every client sees changes
 * only when it returns. Its own calls so far are listed apart instead of being folded in early.
 */
function InsideScript() {
  const t = useT();
  const { run, cursor } = usePick(usePlayground, 'run', 'cursor');
  const calls = useMemo(() => {
    const ev = run && eventAt(run, cursor);
    // from script.begin to script.end: the keyspace takes the script's writes with its reply (cmd)
    if (!run || !ev?.kind.startsWith('script.')) return null;
    const ctx = findScriptContext(run.trace.events, cursor);
    if (!ctx || ctx.reply !== undefined) return null;
    return ctx.calls.filter((c) => c.reply !== undefined);
  }, [run, cursor]);
  if (calls === null) return null;
  return (
    <div className="keyspace__inscript" data-testid="inside-script">
      <p className="muted">{t('inspect.inScript')}</p>
      {calls.length > 0 && (
        <ul>
          {calls.map((c, i) => (
            <li key={i}>
              <code>
                {c.argv.join(' ')} → {replyText(c.reply)}
              </code>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Each node's keyspace at the cursor: hash fields with counters, TTL counting down, type. */
export function Keyspace() {
  const t = useT();
  const visible = usePlayground((s) => s.visible);
  const cluster = usePlayground((s) => s.run?.scenario.redis.topology === 'cluster');
  // a cluster's nodes shard by shard (each master, then its replicas), as on the timeline
  const shards = usePlayground((s) => s.run?.model.shards);
  const rank = (id: string) => shards?.findIndex((ids) => ids.includes(id)) ?? 0;
  const realIds = usePlayground((s) => s.realIds);
  return (
    <section className="panel" data-testid="keyspace" aria-labelledby="ks-h">
      <h3 id="ks-h">
        {t('inspect.keyspace')}
        <label className="ks__ids" title={t('inspect.realIdsHint')}>
          <input
            type="checkbox"
            data-testid="ks-real-ids"
            checked={realIds}
            onChange={(e) => usePlayground.setState({ realIds: e.target.checked })}
          />
          {t('inspect.realIds')}
        </label>
      </h3>
      <div className="panel__scroll">
        <InsideScript />
        {visible &&
          Object.entries(visible.nodes)
            .filter(([, n]) => n.role !== 'sentinel')
            .sort(([a], [b]) => rank(a) - rank(b))
            .map(([id, n]) => <NodeCard key={id} id={id} node={n} now={visible.t} cluster={cluster} />)}
      </div>
    </section>
  );
}
