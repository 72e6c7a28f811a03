import { describe, expect, it } from 'vitest';
import { listAllBuiltins } from './engine-adapter-incidents';
import { groupOf } from './scenario-groups';
import { searchBuiltins } from './scenario-search';

// the picker's list once the rest of the built-ins has arrived (the page loads it on demand)
const all = listAllBuiltins();
const ids = (q: string) => searchBuiltins(all, q).map((b) => b.id);

describe('the picker’s search by symptom', () => {
  it('an exception name finds the incidents that show it, incidents first', () => {
    const hits = ids('IllegalMonitorStateException');
    expect(hits).toContain('incident-lease-shorter-than-work');
    expect(hits).toContain('incident-unlock-after-failed-trylock');
    const firstOther = hits.findIndex((id) => !id.startsWith('incident-'));
    if (firstOther >= 0) expect(hits.slice(firstOther).every((id) => !id.startsWith('incident-'))).toBe(true);
  });

  it('is case-insensitive, needs every word, and finds Chinese keywords', () => {
    expect(ids('illegalmonitorstateexception tryLock')).toContain('incident-unlock-after-failed-trylock');
    expect(ids('illegalmonitorstateexception tryLock')).not.toContain('incident-lease-shorter-than-work');
    expect(ids('租期')).toContain('incident-lease-shorter-than-work');
    expect(ids('no such symptom at all')).toEqual([]);
    expect(ids('   ')).toEqual([]);
  });

  it('every incident sits in the Real incidents group', () => {
    for (const b of all) expect(groupOf(b) === 'incidents', b.id).toBe(b.incident !== undefined);
  });
});
