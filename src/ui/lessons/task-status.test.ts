import { beforeAll, describe, expect, it } from 'vitest';
import { addEnglish, loadLang, translate, type Lang } from '../i18n';
import { enLearn } from '../i18n/en-learn';
import type { TaskStatus } from './player';
import { taskStatusLine } from './task-status';

beforeAll(async () => {
  addEnglish(enLearn);
  await loadLang('zh');
});

const line = (
  lang: Lang,
  status: TaskStatus,
  verdict: 'unsafe' | 'stuck' | 'cut' | null,
  controls: boolean,
) => taskStatusLine(status, verdict, controls, (key, params) => translate(lang, key, params));

describe('the task’s status line', () => {
  it('a run cut short says it could not be graded, never that it is Safe or must be made Safe', () => {
    const en = line('en', 'notyet', 'cut', false);
    expect(en).toContain('cut short');
    expect(en).not.toMatch(/Safe|Cut short/);
    const zh = line('zh', 'notyet', 'cut', false);
    expect(zh).toContain('未跑完');
    expect(zh).not.toContain('安全');
    expect(zh).not.toBe(en);
  });

  it('a run that is not Safe names its verdict; other states keep their lines', () => {
    expect(line('en', 'notyet', 'unsafe', false)).toContain('your run is Unsafe');
    expect(line('zh', 'notyet', 'stuck', false)).toContain('卡死');
    expect(line('en', 'notyet', null, false)).toBe(translate('en', 'learn.taskNotYet'));
    expect(line('en', 'idle', null, true)).toBe(translate('en', 'learn.taskHowControls'));
    expect(line('en', 'searching', null, false)).toBe('');
  });
});
