/**
 * A violation in the learner's words. V3 has three causes and two of them involve no valid lock
 * at all, so "a holder whose lock was no longer valid" would be wrong there (D24): each cause gets
 * its own sentence, and the threads are named by their role (writer, wronged, owner, waiting).
 * The liveness kinds quote the bounds they use (L6: LIVELOCK_MS, L7: STARVATION_OVERTAKES).
 */
import { LIVELOCK_MS, NO_LOCK, STARVATION_OVERTAKES } from '../../engine/trace/types';
import type { MessageKey } from '../i18n';
import type { ViolationBand } from './model';

type T = (key: MessageKey, vars?: Record<string, string | number>) => string;

export function violationTitle(
  v: Pick<ViolationBand, 'kind' | 'lock' | 'cause' | 'serverHolds' | 'clientHolds'>,
  t: T,
): string {
  if (v.kind === 'V3' && v.cause === 'unlocked')
    return t(v.lock === NO_LOCK ? 'violation.V3noLock' : 'violation.V3readLock', { lock: v.lock });
  if (v.kind === 'V3' && v.cause === 'lost-update') return t('violation.V3lost', { lock: v.lock });
  if (v.kind === 'L2' && v.cause === 'dead-ahead') return t('violation.L2deadAhead', { lock: v.lock });
  if (v.kind === 'L2' && v.cause === 'hung') return t('violation.L2hung', { lock: v.lock });
  if (v.kind === 'L5' && v.cause === 'upgrade') return t('violation.L5upgrade', { lock: v.lock });
  return t(`violation.${v.kind}`, {
    lock: v.lock,
    ms: LIVELOCK_MS,
    n: STARVATION_OVERTAKES,
    server: v.serverHolds ?? '?',
    client: v.clientHolds ?? '?',
  });
}

export function violationWho(v: Pick<ViolationBand, 'kind' | 'holders' | 'waiting'>, t: T): string {
  if (v.kind === 'V3' && v.holders.length > 0) {
    const [writer, ...wronged] = v.holders;
    return t('violation.writer', { writer, wronged: wronged.join(', ') || '—' });
  }
  if (v.kind === 'L1' && v.waiting) {
    const owners = v.holders.filter((h) => !v.waiting!.includes(h));
    return t('violation.stuckWho', { owners: owners.join(', '), waiting: v.waiting.join(', ') });
  }
  const holders = v.holders.join(', ');
  switch (v.kind) {
    case 'L2':
      return t('violation.waitingWho', { waiting: (v.waiting ?? v.holders).join(', ') });
    case 'L3':
      return t('violation.orphanWho', { holders });
    case 'L5':
      return t('violation.cycleWho', { holders });
    case 'L6':
      return t('violation.retryWho', { holders });
    case 'L7': {
      const waiting = v.waiting ?? v.holders.slice(0, 1);
      const others = v.holders.filter((h) => !waiting.includes(h));
      return t('violation.starvedWho', { waiting: waiting.join(', '), others: others.join(', ') || '—' });
    }
    default:
      return t('violation.holders', { holders });
  }
}
