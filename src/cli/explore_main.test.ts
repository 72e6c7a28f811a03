import { describe, expect, it } from 'vitest';
import { capture, tempFiles } from '../testing/cli/io';
import { basicLock30s } from '../engine/explore/testing/scenarios';
import { exploreMain } from './explore_main';

const run = (...argv: string[]) => capture(exploreMain, argv);
const { file } = tempFiles('lockscope-explore-');
const basic30 = file('basic30.json', JSON.stringify(basicLock30s()));

describe('npm run explore', { timeout: 60_000 }, () => {
  it('prints what was tried, the violation and the shrunk faults', () => {
    const r = run(basic30, '--faults', 'pause', '--budget', '100');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^explore .*basic30\.json: \d+ schedule\(s\) tried \(\d+\/s\), search seed 1, kinds: pause\n/,
    );
    expect(r.out).toMatch(/\nFOUND V1 on myLock \(A:1, B:1\) from t=\d+ ms, at schedule #\d+/);
    expect(r.out).toMatch(
      /\nshrunk in \d+ step\(s\) \(\d+ ms\) to 1 change\(s\):\n {2}\+ pause of A at \d+ ms for \d+ ms\n/,
    );
  });

  it('prints the report as JSON with --json, and says what was tried when nothing is found', () => {
    const r = run('basic-lock', '--faults', 'pause,interrupt', '--budget', '5', '--seed', '2', '--json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report).toMatchObject({
      tried: 5,
      perSec: expect.any(Number),
      found: null,
      violation: null,
      shrinkSteps: 0,
      explored: { schedules: 5, seed: 2, faultKinds: ['pause', 'interrupt'] },
    });
    expect(run('basic-lock', '--faults', 'pause', '--budget', '5').out).toMatch(
      /\nNo V1\/V2\/V3\/L1\/L2\/L3\/L4\/L5\/L6\/L7 violation in 5 schedule\(s\) .* may still break it\.\n$/,
    );
  });

  it('exits 2 with a clear message on bad input', () => {
    const cases: [string[], RegExp][] = [
      [
        ['no-such-id'],
        /^explore: unknown scenario "no-such-id": not a file nor a built-in id \(basic-lock, /,
      ],
      [[file('bad.json', '{nope')], /^explore: .*bad\.json is not valid JSON: /],
      [
        [
          file(
            'schema.json',
            JSON.stringify({ format: 'lockscope/1', clients: [{ id: 'A', threads: [{ id: 1 }] }] }),
          ),
        ],
        /invalid scenario .*\n {2}clients\[0\]\.threads\[0\]\.program: missing required field/,
      ],
      [
        ['basic-lock', '--faults', 'pause,meteor'],
        /^explore: --faults: unknown kind "meteor" \(expected pause, /,
      ],
      [['basic-lock', '--violations', 'V9'], /^explore: --violations: unknown kind "V9"/],
      [['basic-lock', '--budget', 'lots'], /^explore: --budget expects a whole number >= 0, got "lots"/],
      [['basic-lock', '--collect', '0'], /^explore: --collect expects a whole number >= 1/],
      [['basic-lock', '--seed'], /^explore: --seed expects a value/],
      [['basic-lock', '--jsno'], /^explore: unknown option --jsno\nusage: /],
      [[], /^explore: usage: /],
    ];
    for (const [argv, msg] of cases) {
      const r = run(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(msg);
    }
  });
});
