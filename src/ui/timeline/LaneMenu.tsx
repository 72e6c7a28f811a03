/**
 * The lane labels, each a button that opens the lane's menu of faults to add at the cursor's
 * time: crash or restart a node, pause or crash a client, cut either off from the rest (pause and
 * partition lengths editable in the menu) or slow its links down. The faults themselves are built
 * by the engine's scenario edits. The menu is fixed to the window, so the timeline's scroll box cannot clip it,
 * and is kept inside the screen.
 */
import { memo, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { addFault, ISOLATE_MS, isolate, SLOW_FOR_MS, SLOW_MS, slowDown } from '../../engine/scenario/edit';
import type { Fault } from '../../engine/scenario/schema';
import { clientOf } from '../../engine/trace/actors';
import { loadScenario } from '../controller';
import { useT } from '../hooks/useT';
import { MenuItem } from '../shell/MenuItem';
import { clockAt, usePlayground } from '../store';
import type { Layout } from './layout';
import { roleAt, slotsAt, type LaneModel } from './model';

export const LABEL_W = 112;
/** cluster runs: room for a master's "slots 10923–16383" under its name, highlighted or presented */
const CLUSTER_LABEL_W = 136;

/** The label column's width for this run. */
export function labelWidth(model: LaneModel): number {
  return model.shards ? CLUSTER_LABEL_W : LABEL_W;
}

const PAUSE_MS = 5000;
/** Longest fault length the menu offers, in seconds (a scenario can say more in JSON). */
const MAX_LENGTH_S = 600;

/** Last lengths chosen, so a teacher trying 5 s, then 12 s, then 12 s again types it once. */
const lengths = { pause: PAUSE_MS / 1000, partition: ISOLATE_MS / 1000 };

function LengthInput({ kind, label }: { kind: keyof typeof lengths; label: string }) {
  const [v, setV] = useState(String(lengths[kind]));
  return (
    <label className="lane-menu__length">
      <span>{label}</span>
      <input
        type="number"
        min={0.1}
        max={MAX_LENGTH_S}
        step="any"
        inputMode="decimal"
        value={v}
        data-testid={`length-${kind}`}
        onChange={(e) => {
          setV(e.target.value);
          const n = Number(e.target.value);
          if (Number.isFinite(n) && n > 0) lengths[kind] = Math.min(MAX_LENGTH_S, n);
        }}
      />
    </label>
  );
}
/**
 * A node's role at `at`, only when its name does not already say it (a replica once promoted).
 * The role at the cursor, not the last one: before the promotion the label says what the node
 * is then (predict mode must not give the failover away), and the tag on the lane marks when.
 */
export function roleChange(id: string, model: LaneModel, at: number): string | null {
  const lane = model.nodes.find((n) => n.id === id);
  const role = lane ? roleAt(lane, at) : null;
  return !role || id.startsWith(role) ? null : role;
}

/** Whether a run's lane labels change with the cursor: a cluster's slots, a node's role. */
export function labelsFollowCursor(model: LaneModel): boolean {
  return model.shards !== undefined || model.nodes.some((n) => n.roles.length > 1);
}

/** The role on a line of its own under the name, so "replica-1 → master" is never cut. */
const ROLE_KEYS = {
  master: 'topo.role.master',
  replica: 'topo.role.replica',
  sentinel: 'topo.role.sentinel',
} as const;

/** A node's role in the page's language (主节点 / 从节点 in 中文); an unknown role as it is. */
export function roleWord(role: string, t: ReturnType<typeof useT>): string {
  return role in ROLE_KEYS ? t(ROLE_KEYS[role as keyof typeof ROLE_KEYS]) : role;
}

function NodeRole({ role }: { role: string | null }) {
  const t = useT();
  return role === null ? null : <span className="lane-label__role">→ {roleWord(role, t)}</span>;
}

/** A cluster node's slots at `at` as its label shows them ("slots 0–5460"), or null. */
export function slotText(
  id: string,
  model: LaneModel,
  at: number,
  t: ReturnType<typeof useT>,
): string | null {
  const lane = model.nodes.find((n) => n.id === id);
  const slots = lane ? slotsAt(lane, at) : null;
  return slots ? t('timeline.slots', { slots: slots.replace(/-/g, '–') }) : null;
}

/**
 * The lane's name as shown (with its role, and a cluster node's slots at the cursor), so the
 * button's accessible name contains its text.
 */
function laneName(
  id: string,
  kind: string,
  model: LaneModel,
  at: number,
  slots: string | null,
  t: ReturnType<typeof useT>,
): string {
  const role = kind === 'node' ? roleChange(id, model, at) : null;
  const name = role === null ? id : `${id} → ${roleWord(role, t)}`;
  return slots === null ? name : `${name} · ${slots}`;
}

function addAndRerun(fault: Fault) {
  void loadScenario(addFault(usePlayground.getState().scenario ?? {}, fault), { keepTime: true });
}

function isolateAndRerun(endpoint: string, at: number) {
  const run = usePlayground.getState().run;
  if (!run) return;
  const f = isolate(run.scenario, run.nodeIds, endpoint, at);
  addAndRerun(f.kind === 'partition' ? { ...f, healAt: at + Math.round(lengths.partition * 1000) } : f);
}

const SLOW_VARS = (lane: string) => ({ lane, ms: SLOW_MS, s: SLOW_FOR_MS / 1000 });

function NodeMenu({ id, model, close }: { id: string; model: LaneModel; close(): void }) {
  const t = useT();
  const at = clockAt(usePlayground.getState());
  const down = model.nodes.find((n) => n.id === id)?.down.some((d) => d.from <= at && at < d.to) ?? false;
  const [, setTick] = useState(0);
  return (
    <>
      <MenuItem
        label={t(down ? 'timeline.restartNode' : 'timeline.crashNode', { lane: id })}
        close={close}
        act={() => addAndRerun(down ? { at, kind: 'restart', node: id } : { at, kind: 'crash', node: id })}
      />
      <MenuItem
        label={t('timeline.partitionLaneFor', { lane: id, s: lengths.partition })}
        close={close}
        act={() => isolateAndRerun(id, at)}
      />
      <MenuItem
        label={t('timeline.slowLaneFor', SLOW_VARS(id))}
        close={close}
        act={() => addAndRerun(slowDown(id, at))}
      />
      <div className="lane-menu__lengths" onInput={() => setTick((n) => n + 1)}>
        <LengthInput kind="partition" label={t('timeline.partitionLength')} />
      </div>
    </>
  );
}

function ClientMenu({ client, close }: { client: string; close(): void }) {
  const t = useT();
  // Re-rendered when a length changes, so the items say the length they will use.
  const [, setTick] = useState(0);
  const item = (label: string, act: (at: number) => void) => (
    <MenuItem label={label} close={close} act={() => act(clockAt(usePlayground.getState()))} />
  );
  return (
    <>
      {item(t('timeline.pauseClientFor', { lane: client, s: lengths.pause }), (at) =>
        addAndRerun({ at, kind: 'pause', client, ms: Math.round(lengths.pause * 1000) }),
      )}
      {item(t('timeline.crashClient', { lane: client }), (at) => addAndRerun({ at, kind: 'crash', client }))}
      {item(t('timeline.partitionLaneFor', { lane: client, s: lengths.partition }), (at) =>
        isolateAndRerun(client, at),
      )}
      {item(t('timeline.slowLaneFor', SLOW_VARS(client)), (at) => addAndRerun(slowDown(client, at)))}
      <div className="lane-menu__lengths" onInput={() => setTick((n) => n + 1)}>
        <LengthInput kind="pause" label={t('timeline.pauseLength')} />
        <LengthInput kind="partition" label={t('timeline.partitionLength')} />
      </div>
    </>
  );
}

/** The open menu, placed beside its lane label and moved back inside the window if it spills out. */
function MenuBox({ anchor, children }: { anchor: { left: number; top: number }; children: React.ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    const vw = document.documentElement.clientWidth;
    const vh = window.innerHeight;
    el.style.left = `${Math.max(4, Math.min(anchor.left, vw - r.width - 4))}px`;
    el.style.top = `${Math.max(4, Math.min(anchor.top, vh - r.height - 4))}px`;
    el.style.visibility = 'visible';
  });
  return (
    <div ref={ref} className="lane-menu" role="menu" data-testid="lane-menu">
      {children}
    </div>
  );
}

export const LaneLabels = memo(function LaneLabels({ layout, model }: { layout: Layout; model: LaneModel }) {
  const t = useT();
  // A cluster's slots and a promoted node's role follow the cursor; other runs never re-render here.
  const follow = labelsFollowCursor(model);
  const at = usePlayground((s) => (follow ? clockAt(s) : 0));
  const [openMenu, setOpenMenu] = useState<{ id: string; left: number; top: number } | null>(null);
  const open = openMenu?.id ?? null;
  const setOpen = (id: null) => setOpenMenu(id);
  const boxRef = useRef<HTMLDivElement>(null);
  // The menu closes on Escape or a click anywhere else.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!boxRef.current?.contains(e.target as Node)) setOpen(null);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(null);
    };
    // The menu is fixed to the window: when the page or the lanes scroll, it would float away.
    const onScroll = (e: Event) => {
      if (!boxRef.current?.contains(e.target as Node) || e.target === boxRef.current) setOpen(null);
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    window.addEventListener('scroll', onScroll, true);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
      window.removeEventListener('scroll', onScroll, true);
    };
  }, [open]);
  const close = () => setOpen(null);
  return (
    <div
      className="timeline__labels"
      ref={boxRef}
      style={{ width: labelWidth(model), height: layout.height }}
    >
      {layout.rows.map((r) =>
        r.kind === 'sentinels' ? (
          <div
            key={r.id}
            className="lane-label lane-label--sentinels"
            style={{ top: r.y, height: r.h }}
            title={model.sentinels?.ids.join(', ')}
          >
            {t(model.sentinels?.kind === 'cluster' ? 'timeline.clusterBus' : 'timeline.sentinels')}
          </div>
        ) : r.kind === 'header-shard' && r.folded ? (
          // a shard the lesson step does not talk about (presenter mode): one click shows them all
          <button
            type="button"
            key={`shard-${r.shard}`}
            className="lane-label lane-label--shard lane-label--folded"
            style={{ top: r.y, height: r.h }}
            data-testid="shard-label"
            data-folded={r.folded.join(' ')}
            title={t('timeline.shardFoldedHint')}
            onClick={() => usePlayground.setState({ laneFocus: [] })}
          >
            ▸ {t('timeline.shardFolded', { n: r.shard ?? 0, nodes: r.folded.join(', ') })}
          </button>
        ) : r.kind === 'header-shard' ? (
          <div
            key={`shard-${r.shard}`}
            className="lane-label lane-label--shard"
            style={{ top: r.y, height: r.h }}
            data-testid="shard-label"
          >
            {t('timeline.shard', { n: r.shard ?? 0 })}
          </div>
        ) : r.id ? (
          (() => {
            const slots = r.kind === 'node' ? slotText(r.id, model, at, t) : null;
            const name = laneName(r.id, r.kind, model, at, slots, t);
            // a lane of several key sub-rows: its name beside the first, not adrift in the middle
            const top =
              r.kind === 'node' && (model.nodes.find((n) => n.id === r.id)?.keyNames.length ?? 0) > 1;
            return (
              <div
                key={r.id}
                className={`lane-label lane-label--${r.kind}${top ? ' lane-label--top' : ''}`}
                style={{ top: r.y, height: r.h }}
              >
                <button
                  type="button"
                  className="lane-label__btn"
                  title={name}
                  aria-label={t('timeline.laneMenu', { lane: name })}
                  aria-haspopup="menu"
                  aria-expanded={open === r.id}
                  onClick={(e) => {
                    const b = e.currentTarget.getBoundingClientRect();
                    setOpenMenu(open === r.id ? null : { id: r.id, left: b.right, top: b.top });
                  }}
                >
                  <span className="lane-label__id">{r.id}</span>
                  {r.kind === 'node' && <NodeRole role={roleChange(r.id, model, at)} />}
                  {slots !== null && (
                    <span className="lane-label__slots" data-testid="lane-slots">
                      {slots}
                    </span>
                  )}
                </button>
                {openMenu?.id === r.id && (
                  <MenuBox anchor={openMenu}>
                    {r.kind === 'node' ? (
                      <NodeMenu id={r.id} model={model} close={close} />
                    ) : (
                      <ClientMenu client={clientOf(r.id)} close={close} />
                    )}
                  </MenuBox>
                )}
              </div>
            );
          })()
        ) : null,
      )}
    </div>
  );
});
