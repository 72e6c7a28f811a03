/**
 * A violation in the learner's words. V3 has three causes and two of them involve no valid lock
 * at all, so "a holder whose lock was no longer valid" would be wrong there (D24): each cause gets
 * its own sentence, and the threads are named by their role (writer, wronged, owner, waiting).
 */
import { NO_LOCK } from '../../engine/trace/types';
import type { MessageKey } from '../i18n';
import type { ViolationBand } from './model';

type T = (key: MessageKey, vars?: Record<string, string | number>) => string;

export function violationTitle(v: Pick<ViolationBand, 'kind' | 'lock' | 'cause'>, t: T): string {
  if (v.kind === 'V3' && v.cause === 'unlocked')
    return t(v.lock === NO_LOCK ? 'violation.V3noLock' : 'violation.V3readLock', { lock: v.lock });
  if (v.kind === 'V3' && v.cause === 'lost-update') return t('violation.V3lost', { lock: v.lock });
  return t(`violation.${v.kind}`, { lock: v.lock });
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
  return t('violation.holders', { holders: v.holders.join(', ') });
}
