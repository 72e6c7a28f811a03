import { compressToEncodedURIComponent } from 'lz-string';
import { describe, expect, it } from 'vitest';
import { decodeHash, encodeHash, MAX_HASH_CHARS, MAX_NESTING, nestingDepth } from './url-state';
import { runScenario } from '../engine/scenario/run';
import { validateScenario } from '../engine/scenario/schema';
import { client, scenario as scenarioOf } from '../engine/scenario/build';
import { lockWithoutReentry } from '../lessons/content/07_lock_script';

const scenario = { format: 'lockscope/1', clients: [{ id: 'A', threads: [{ id: 1, program: [] }] }] };

describe('URL hash codec', () => {
  it('round-trips a scenario and the cursor', () => {
    const d = decodeHash(encodeHash(scenario, 17));
    expect(d).toEqual({ kind: 'ok', scenario, cursor: 17 });
  });

  it('carries edited Redisson scripts: the decoded scenario runs the same text, to the same trace', () => {
    // the lock script without its reentrancy branch (lesson 7's edit), multi-line, quotes and all
    const lock = lockWithoutReentry;
    const edited = scenarioOf(
      [
        client('A', [
          { op: 'lock', lock: 'myLock' },
          { op: 'tryLock', lock: 'myLock' },
        ]),
      ],
      {
        redisson: { scripts: { lock } },
      },
    );
    const d = decodeHash(encodeHash(edited, 5));
    expect(d).toEqual({ kind: 'ok', scenario: edited, cursor: 5 });
    if (d.kind !== 'ok') return;
    const run = (json: unknown) => {
      const v = validateScenario(json);
      if (!v.ok) throw new Error(JSON.stringify(v.issues));
      return runScenario(v.scenario).trace;
    };
    const trace = run(d.scenario);
    expect(JSON.stringify(trace)).toBe(JSON.stringify(run(edited)));
    expect(trace.events.some((e) => e.kind === 'cmd' && e.argv[0] === 'SCRIPT' && e.argv[2] === lock)).toBe(
      true,
    );
    // and the edit is what ran: the holder's second acquire no longer re-enters
    expect(trace.events.filter((e) => e.kind === 'thread.result').map((e) => e.result)).toEqual([false]);
  });

  it('reads hand-written #json= links', () => {
    expect(decodeHash(`#json=${encodeURIComponent(JSON.stringify(scenario))}`)).toEqual({
      kind: 'ok',
      scenario,
      cursor: null,
    });
  });

  it('says what is wrong with a bad link instead of throwing', () => {
    expect(decodeHash('#s=%%%')).toMatchObject({ kind: 'bad', problem: { key: 'error.linkCorrupt' } });
    const truncated = compressToEncodedURIComponent(JSON.stringify(scenario)).slice(0, 10);
    expect(decodeHash(`#s=${truncated}`).kind).toBe('bad');
    expect(decodeHash('#json=%7B%22a')).toMatchObject({ kind: 'bad', problem: { key: 'error.linkJson' } });
    expect(decodeHash('#json=%E0%A4%A')).toMatchObject({
      kind: 'bad',
      problem: { key: 'error.linkCorrupt' },
    });
    expect(decodeHash(`#s=${'A'.repeat(MAX_HASH_CHARS + 1)}`)).toMatchObject({
      kind: 'bad',
      problem: { key: 'error.linkTooLong' },
    });
  });

  it('ignores hashes that carry no scenario and cursors that are not numbers', () => {
    expect(decodeHash('')).toEqual({ kind: 'none' });
    expect(decodeHash('#top')).toEqual({ kind: 'none' });
    const d = decodeHash(`${encodeHash(scenario, 0).replace(/&c=0$/, '')}&c=1e99`);
    expect(d).toMatchObject({ kind: 'ok', cursor: null });
  });

  it('refuses nesting deeper than JSON.stringify can walk, before parsing it', () => {
    const deep = `{"format":"lockscope/1","clients":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    expect(() => JSON.stringify(JSON.parse(deep))).toThrow(RangeError);
    expect(decodeHash(`#json=${deep}`)).toMatchObject({
      kind: 'bad',
      problem: { key: 'error.tooDeep', params: { max: MAX_NESTING } },
    });
    expect(decodeHash(`#s=${compressToEncodedURIComponent(deep)}`)).toMatchObject({
      kind: 'bad',
      problem: { key: 'error.tooDeep' },
    });
  });

  it('measures nesting outside strings only', () => {
    expect(nestingDepth('{"a":[[1]],"b":"[[[[\\"[["}')).toBe(3);
    expect(nestingDepth('"[[["')).toBe(0);
    expect(nestingDepth('[]')).toBe(1);
  });
});

describe('URL hash extras (zoom window, origin)', () => {
  it('round-trips the zoom window and the built-in an edit came from', () => {
    const d = decodeHash(encodeHash(scenario, 5, { view: [1200.4, 3400], origin: 'gc-pause-lease-expiry' }));
    expect(d).toEqual({
      kind: 'ok',
      scenario,
      cursor: 5,
      view: [1200, 3400],
      origin: 'gc-pause-lease-expiry',
    });
  });

  it('still opens links without them, and drops malformed ones', () => {
    expect(decodeHash(encodeHash(scenario, 3))).toEqual({ kind: 'ok', scenario, cursor: 3 });
    const base = encodeHash(scenario, 3);
    expect(decodeHash(`${base}&v=9,2&o=../x`)).toEqual({ kind: 'ok', scenario, cursor: 3 });
    expect(decodeHash(`${base}&v=abc`)).toEqual({ kind: 'ok', scenario, cursor: 3 });
  });

  it('adds nothing to the hash when there is nothing to keep', () => {
    expect(encodeHash(scenario, 1, {})).toBe(encodeHash(scenario, 1));
  });

  it('keeps predict mode in the link (&p=1), off when absent', () => {
    const on = decodeHash(encodeHash(scenario, 3, { predict: true }));
    expect(on).toMatchObject({ kind: 'ok', cursor: 3, predict: true });
    expect(decodeHash(encodeHash(scenario, 3))).not.toHaveProperty('predict');
  });
});
