import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { capture, tempFiles } from '../testing/cli/io';
import { simMain } from './sim_main';

const run = (...argv: string[]) => capture(simMain, argv);
const { dir, file } = tempFiles('lockscope-sim-');

describe('npm run sim', () => {
  it('prints a one-line-per-event timeline and the verdict of a built-in', () => {
    const r = run('lease-expiry-no-watchdog');
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const lines = r.out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ {7}0 {2}A:1 {11}thread\.start$/);
    expect(r.out).toMatch(/VIOLATION STARTS: V1 on myLock held by A:1, B:1/);
    expect(r.out).toMatch(
      /\nverdict: unsafe \(\d+ events, ended at t=\d+\)\n {2}V1 on myLock: A:1, B:1 from \d+ to \d+\n/,
    );
  });

  it('prints the trace as JSON with --json, identical to the run', () => {
    const r = run('basic-lock', '--json');
    expect(r.code).toBe(0);
    const trace = JSON.parse(r.out);
    expect(trace).toMatchObject({ format: 'lockscope-trace/1', verdict: 'safe', violations: [] });
    expect(run('basic-lock', '--json').out).toBe(r.out);
  });

  it('runs a scenario file', () => {
    const p = file(
      'ok.json',
      JSON.stringify({
        format: 'lockscope/1',
        clients: [{ id: 'A', threads: [{ id: 1, program: [{ op: 'redis', argv: ['SET', 'k', 'v'] }] }] }],
      }),
    );
    const r = run(p);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/master ran SET k v → OK/);
  });

  it('exits 2 with a clear message on bad input', () => {
    const cases: [string[], RegExp][] = [
      [[join(dir, 'missing.json')], /^sim: no such file: .*missing\.json\n$/],
      [[file('bad.json', '{nope')], /^sim: .*bad\.json is not valid JSON: /],
      [
        [
          file(
            'schema.json',
            JSON.stringify({
              format: 'lockscope/1',
              clients: [{ id: 'A', threads: [{ id: 1, program: [{ op: 'lokc' }] }] }],
            }),
          ),
        ],
        /invalid scenario .*\n {2}clients\[0\]\.threads\[0\]\.program\[0\]\.op: unknown op "lokc"/,
      ],
      [['no-such-id'], /^sim: unknown scenario "no-such-id": not a file nor a built-in id \(basic-lock, /],
      [
        [
          file(
            'sentinel.json',
            JSON.stringify({
              format: 'lockscope/1',
              redis: { topology: 'sentinel' },
              clients: [{ id: 'A', threads: [{ id: 1, program: [] }] }],
            }),
          ),
        ],
        /^sim: cannot run .*sentinel\.json: .*sentinel/,
      ],
      [['basic-lock', '--jsno'], /^unknown option --jsno\nusage: /],
      [[], /^usage: /],
    ];
    for (const [argv, msg] of cases) {
      const r = run(...argv);
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(msg);
    }
  });
});
