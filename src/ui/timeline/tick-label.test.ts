import { beforeAll, describe, expect, it } from 'vitest';
import { loadLang, translate } from '../i18n';
import { tickLabel } from './tick-label';

describe('tickLabel', () => {
  beforeAll(() => loadLang('zh'));
  it('labels a tick in ms below a second and in seconds from one, in the reader’s language', () => {
    const en = (ms: number) => tickLabel(ms, (k, p) => translate('en', k, p));
    const zh = (ms: number) => tickLabel(ms, (k, p) => translate('zh', k, p));
    expect([en(0), en(500), en(1000), en(12_500), en(600_000)]).toEqual(['0 ms', '500 ms', '1 s', '12.5 s', '600 s']);
    expect([zh(0), zh(1000), zh(12_500)]).toEqual(['0 毫秒', '1 秒', '12.5 秒']);
  });
});
