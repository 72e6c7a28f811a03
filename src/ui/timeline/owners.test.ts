import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../engine/trace/types';
import { nameOwners, ownerCollector } from './owners';

const U = '8b0f8b81-2984-4fb8-ad08-c33276a1e0a8';
const ev = (kind: string, actor: string, owner: string) =>
  ({ t: 0, seq: 0, kind, actor, owner, lock: 'l' }) as TraceEvent;

function collectOwners(events: readonly TraceEvent[]) {
  const collector = ownerCollector();
  for (const e of events) collector.add(e);
  return collector.names;
}

describe('owner names (D19)', () => {
  const owners = collectOwners([
    ev('lock.acquired', 'A:1', `${U}:1`),
    ev('lock.acquired', 'A:1', 'r4nd0m-v4lue'),
    ev('lock.acquired', 'B:1', 'shared-value'),
    ev('lock.acquired', 'B:1', '1'),
    ev('lock.acquired', 'C:1', 'shared-value'),
  ]);

  it.each([
    [`${U}:1`, false, 'A:1'],
    [`${U}:1`, true, 'A:1 (8b0f8b81…)'],
    [`${U}:1:write`, false, 'A:1:write'],
    [`{rw}:${U}:2:rwlock_timeout:1`, false, '{rw}:A:2:rwlock_timeout:1'],
    ['r4nd0m-v4lue', false, 'A:1'],
    // a value two threads wrote names neither, a short one is no identity
    ['shared-value', false, 'shared-value'],
    ['1', false, '1'],
    // a uuid the trace never paired with a thread stays
    ['11111111-2222-3333-4444-555555555555:1', false, '11111111-2222-3333-4444-555555555555:1'],
  ])('%s (keep id %s) → %s', (text, keep, out) => {
    expect(nameOwners(text, owners, keep)).toBe(out);
  });
});
