import { beforeAll, describe, expect, it } from 'vitest';
import { loadLang, translate } from '../i18n';
import { shownVerdict, VERDICT_LABEL } from './shown-verdict';

describe('shownVerdict', () => {
  beforeAll(() => loadLang('zh'));

  it('a run stopped before its end with nothing broken is cut short, never Safe', () => {
    expect(shownVerdict({ verdict: 'safe', truncated: true })).toBe('cut');
    expect(shownVerdict({ verdict: 'safe' })).toBe('safe');
  });

  it('violations found before the cut stand', () => {
    expect(shownVerdict({ verdict: 'unsafe', truncated: true })).toBe('unsafe');
    expect(shownVerdict({ verdict: 'stuck', truncated: true })).toBe('stuck');
  });

  it('every shown verdict and every reason for a cut reads in both languages', () => {
    for (const key of [...Object.values(VERDICT_LABEL), 'verdict.cutNothing' as const]) {
      expect(translate('zh', key)).not.toBe(translate('en', key));
    }
    for (const why of ['events', 'tasks', 'instant'] as const) {
      const en = translate('en', `verdict.cut.${why}`);
      const zh = translate('zh', `verdict.cut.${why}`);
      expect(en).not.toContain('{');
      expect(zh).not.toContain('{');
      expect(zh).not.toBe(en);
    }
  });
});
