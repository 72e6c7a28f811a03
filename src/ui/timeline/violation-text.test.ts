import { describe, expect, it } from 'vitest';
import { translate, type MessageKey } from '../i18n';
import { violationTitle, violationWho } from './violation-text';

const t = (k: MessageKey, p?: Record<string, string | number>) => translate('en', k, p);

describe('violation texts (D24)', () => {
  it('a V3 without a lock says so, and names writer and wronged, not "holders"', () => {
    const v = { kind: 'V3' as const, lock: '(none)', cause: 'unlocked', holders: ['A:2', 'A:1', 'B:1'] };
    expect(violationTitle(v, t)).toMatch(/without a lock/);
    expect(violationTitle(v, t)).not.toMatch(/holder/);
    expect(violationWho(v, t)).toBe('writer: A:2 · overwritten or overlapping: A:1, B:1');
  });

  it('a stale V3 keeps the stale-holder sentence; L1 names the gone owner and the waiters', () => {
    expect(violationTitle({ kind: 'V3', lock: 'L', cause: 'stale' }, t)).toMatch(/no longer valid/);
    expect(violationWho({ kind: 'L1', holders: ['A:1', 'B:1'], waiting: ['B:1'] }, t)).toBe(
      'gone owner: A:1 · waiting forever: B:1',
    );
  });
});
