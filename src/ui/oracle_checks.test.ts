import { describe, expect, it } from 'vitest';
import { oracleChecks } from './oracle_checks';
import { loadRecordings } from '../oracle/recordings';

describe('oracleChecks: the "checked against" line comes from the committed recordings', () => {
  const recs = loadRecordings().map((r) => r.rec);

  it('names every recording that agrees, and no other', () => {
    for (const rec of recs) {
      const shown = oracleChecks(rec.source).some((c) => c.release === rec.release && c.level === rec.level);
      expect(shown, `${rec.source}@${rec.release}`).toBe((rec.differences ?? []).length === 0);
    }
  });

  it('says nothing for a scenario without recordings', () => {
    expect(oracleChecks('no-such-built-in')).toEqual([]);
  });
});
