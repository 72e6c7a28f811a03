/**
 * The model against every recording of the real client (oracle/recordings/*.json, made by
 * `npm run oracle -- <scenario> --record`): no Java and no Redis needed. A model change that
 * breaks agreement with real Redisson 3.27.2 / 4.7.0 + redis-server 7.0.15 fails here.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { builtins } from '../engine/scenario/builtins/index';
import { compareRuns, describeDifferences } from './compare';
import { loadRecordings } from './recordings';
import { atRelease, runModel, validated } from './model_side';
import { printTable } from './oracle_main';

/** where the scenarios that are not built-ins live, each beside the output of its --compare */
const EXAMPLES_DIR = 'oracle/examples';
const recordings = loadRecordings();
const differencesDoc = readFileSync('docs/redisson-differences.md', 'utf8');

describe('the model agrees with the real Redisson client (oracle recordings)', () => {
  it('has recordings', () => {
    expect(recordings.length).toBeGreaterThan(0);
  });

  for (const { file, rec } of recordings) {
    it(`${rec.source} at Redisson ${rec.release} (${rec.level})`, () => {
      const model = runModel(validated(rec.scenario));
      const cmp = compareRuns(rec.real, model, rec.level, rec.tolerance);
      const where = cmp.differences.map((d) => d.where);
      const expected = rec.differences ?? [];
      if (where.join('\n') !== expected.join('\n')) throw new Error(`${file}: ${describeDifferences(cmp)}`);
      // every difference a recording keeps is explained where users read about differences
      if (expected.length > 0) expect(differencesDoc).toContain(`oracle: ${rec.source}@${rec.release}`);
      // contention-100's model run alone takes seconds on a loaded shared machine
    }, 60_000);
  }

  it('records built-ins as they are today (a changed built-in must be recorded again)', () => {
    for (const { file, rec } of recordings) {
      const b = builtins.find((x) => x.id === rec.source);
      if (b) expect(rec.scenario, file).toEqual(atRelease(b.scenario, rec.release));
    }
  });

  it('records the scenarios written for the oracle as committed (oracle/examples/<id>.json)', () => {
    for (const { file, rec } of recordings) {
      if (builtins.some((x) => x.id === rec.source)) continue;
      const path = `${EXAMPLES_DIR}/${rec.source}.json`;
      expect(existsSync(path), `${file}: its scenario ${path} is not committed`).toBe(true);
      expect(rec.scenario, file).toEqual(atRelease(JSON.parse(readFileSync(path, 'utf8')), rec.release));
    }
  });

  it('docs/oracle.md lists every built-in with its recordings, or why there is none', () => {
    // `npm run -s oracle -- --table` prints it
    expect(readFileSync('docs/oracle.md', 'utf8')).toContain(printTable());
  });
});

describe('the recordings test can fail', () => {
  it('a model that sent one lock command differently would disagree with basic-lock', () => {
    const rec = recordings.find((r) => r.rec.source === 'basic-lock' && r.rec.level === 'exact')?.rec;
    if (!rec) return;
    const model = runModel(validated(rec.scenario));
    const firstClient = Object.keys(model.commands)[0];
    model.commands[firstClient][0].argv = model.commands[firstClient][0].argv.map((a) => (a === '30000' ? '30001' : a));
    expect(compareRuns(rec.real, model, rec.level, rec.tolerance).differences.length).toBeGreaterThan(0);
  });
});
