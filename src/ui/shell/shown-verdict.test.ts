import { beforeAll, describe, expect, it } from 'vitest';
import { loadLang, translate, type MessageKey, type Params } from '../i18n';
import type { Trace } from '../../engine/trace/types';
import { cutNote, sentences, shownVerdict, VERDICT_LABEL } from './shown-verdict';

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
    for (const why of ['events', 'tasks', 'instant', 'time'] as const) {
      const en = translate('en', `verdict.cut.${why}`, { s: 600 });
      const zh = translate('zh', `verdict.cut.${why}`, { s: 600 });
      expect(en).not.toContain('{');
      expect(zh).not.toContain('{');
      expect(zh).not.toBe(en);
    }
  });

  it('the note on a cut run says when and why, and joins its sentences as each language does', () => {
    const final = { t: 1234 } as Trace['final'];
    const tr = (lang: 'en' | 'zh') => (key: MessageKey, params?: Params) => translate(lang, key, params);
    const cut = { verdict: 'safe' as const, truncated: true, truncatedBy: 'tasks' as const, final };
    expect(cutNote({ ...cut, truncated: undefined }, tr('en'))).toBe('');
    const en = cutNote(cut, tr('en'));
    expect(en).toMatch(/^The run was stopped at 1234 ms, before its end: .*task cap.*\. Nothing was broken/);
    const zh = cutNote(cut, tr('zh'));
    expect(zh).toContain('1234 毫秒');
    expect(zh).toContain('。到那时为止');
    // a violation before the cut stands: no "nothing was broken"
    expect(cutNote({ ...cut, verdict: 'unsafe' }, tr('en'))).not.toContain('Nothing was broken');
    // cut by time: stopped at the cap, after its last event, and it says how to run longer
    const late = cutNote({ ...cut, truncatedBy: 'time' }, tr('en'));
    expect(late).toMatch(/^The run was stopped at 600000 ms, before its end: it had not ended by 600 s .*“until”/);
    expect(cutNote({ ...cut, truncatedBy: 'time' }, tr('zh'))).toContain('600 秒');
    expect(sentences('One.', '', 'Two.')).toBe('One. Two.');
    expect(sentences('一。', '二。')).toBe('一。二。');
  });
});
