/**
 * What a counterexample changed, in the reader's language: the diff the Explore panel lists.
 * (The engine's own descriptions are English only, for the CLI.)
 */
import type { Change } from '../../engine/explore';
import type { Fault } from '../../engine/scenario/schema';
import type { MessageKey } from '../i18n';
import type { ShrinkOutcome } from './protocol';

type T = (key: MessageKey, vars?: Record<string, string | number>) => string;

export function describeFault(f: Fault, t: T): string {
  const at = f.at;
  switch (f.kind) {
    case 'pause':
      return t('explore.fault.pause', { client: f.client, ms: f.ms, at });
    case 'crash':
      return f.client !== undefined
        ? t('explore.fault.crashClient', { client: f.client, at })
        : t('explore.fault.crashNode', { node: f.node ?? '?', at });
    case 'restart':
      return t('explore.fault.restart', { node: f.node, at });
    case 'partition': {
      const groups = f.groups.map((g) => `[${g.join(', ')}]`).join(' | ');
      const cut =
        f.healAt === undefined
          ? t('explore.fault.partitionForever', { groups, at })
          : t('explore.fault.partition', { groups, at, heal: f.healAt });
      return f.reset === true ? `${cut}${t('explore.fault.partitionResets')}` : cut;
    }
    case 'clock':
      return t('explore.fault.clock', { node: f.node, jump: f.jumpMs > 0 ? `+${f.jumpMs}` : f.jumpMs, at });
    case 'interrupt':
      return t('explore.fault.interrupt', { thread: `${f.client}:${f.thread}`, at });
    case 'latency': {
      const vars = { ms: f.ms, at, end: f.endAt };
      return f.endpoints === undefined
        ? t('explore.fault.latencyAll', vars)
        : t('explore.fault.latency', { ...vars, who: f.endpoints.join(', ') });
    }
    default:
      // a kind newer than this page's table still gets a line
      return t('explore.fault.other', { kind: (f as { kind: string }).kind, at: (f as { at: number }).at });
  }
}

export interface ChangeLine {
  /** '+' added, '~' moved or retimed */
  sign: '+' | '~';
  text: string;
}

export function describeChange(
  c: Change,
  base: Pick<ShrinkOutcome, 'baseFaults' | 'baseReplicas'>,
  t: T,
): ChangeLine {
  if (c.kind === 'add') return { sign: '+', text: describeFault(c.fault, t) };
  if (c.kind === 'move') {
    const before = base.baseFaults[c.index];
    if (!before) return { sign: '~', text: t('explore.fault.other', { kind: 'move', at: c.at }) };
    const fault = describeFault({ ...before, at: c.at } as Fault, t);
    return { sign: '~', text: t('explore.change.movedText', { fault, from: before.at }) };
  }
  return {
    sign: '~',
    text: t('explore.change.lag', { n: c.replica, to: c.lagMs, from: base.baseReplicas[c.replica - 1] ?? 0 }),
  };
}
