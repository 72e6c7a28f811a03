import type { MessageKey, Params } from '../i18n';
import type { TaskStatus } from './player';

/**
 * The task's status line while it is neither done nor dodged ('' for none). A run that is not
 * Safe names its verdict; a run cut short says it could not be graded (not "make it Safe": it may
 * have broken nothing).
 */
export function taskStatusLine(
  status: TaskStatus,
  verdict: 'unsafe' | 'stuck' | 'cut' | null,
  controls: boolean,
  t: (key: MessageKey, params?: Params) => string,
): string {
  switch (status) {
    case 'checking':
      return t('learn.taskChecking');
    case 'notyet':
      if (verdict === 'cut') return t('learn.taskRunCut');
      return verdict === null
        ? t('learn.taskNotYet')
        : t('learn.taskRunNotSafe', { verdict: t(`verdict.${verdict}`) });
    case 'searching':
    case 'broken':
      return '';
    default:
      return t(controls ? 'learn.taskHowControls' : 'learn.taskHow');
  }
}
