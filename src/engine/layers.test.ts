import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The layer rule lives in eslint.config.js; these run it on made-up files, so a rule that stops
// biting (a pattern typo, a block that a later one overrides) fails here, not in review.
const eslint = new ESLint({ cwd: process.cwd() });

async function importErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages
    .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

// Upward, or sideways within a layer.
const refused: [string, string][] = [
  ['src/engine/lock_types.ts', "import type { Clock } from './clock';"],
  ['src/engine/redisson/x.ts', "import type { Topology } from '../topology/topology';"],
  ['src/engine/sim/x.ts', "import type { Scenario } from '../scenario/schema';"],
  ['src/engine/sim/x.ts', "import { SafetyMonitor } from '../check/monitor';"],
  ['src/engine/redis/x.ts', "import type { TraceEvent } from '../trace/types';"],
  ['src/engine/redis/x.ts', "import type { Prng } from '../sim/api';"],
  ['src/engine/net/x.ts', "import { RedisServer } from '../redis/server';"],
  ['src/engine/trace/x.ts', "import type { SimContext } from '../sim/api';"],
  ['src/engine/clock.ts', "import type { Reply } from './redis/reply';"],
  ['src/engine/topology/x.ts', "import type { Scenario } from '../scenario/schema';"],
  ['src/engine/check/x.ts', "import { lostWrites } from '../resource/ProtectedResource';"],
  ['src/engine/redisson/pubsub/x.ts', "import { NaiveLock } from '../../naive/NaiveLock';"],
  ['src/engine/redisson/x.ts', "import { runScenario } from '../scenario/run';"],
  ['src/engine/redisson/x.ts', "import { REDISSON_LATEST } from '../scenario/defaults';"],
  ['src/engine/redis/x.ts', "import type { KeyView } from '../trace/types';"],
  ['src/engine/scenario/x.ts', "import { store } from '../../ui/store';"],
  ['src/engine/scenario/x.ts', "import { simulate } from '../redisson/testing/simulate';"],
  ['src/engine/sim/x.ts', "type S = import('../scenario/schema').Scenario;"],
  ['src/engine/scenario/x.ts', "import { explore } from '../explore/index';"],
];

const downward: [string, string][] = [
  ['src/engine/scenario/x.ts', "import { Kernel } from '../sim/kernel';"],
  ['src/engine/scenario/x.ts', "import { SafetyMonitor } from '../check/monitor';"],
  ['src/engine/topology/x.ts', "import type { TopologyHost } from '../sim/api';"],
  ['src/engine/redisson/pubsub/x.ts', "import type { Reply } from '../../redis/reply';"],
  ['src/engine/sim/x.ts', "import type { TraceEvent } from '../trace/types';"],
  ['src/engine/redis/x.ts', "import type { Clock } from '../clock';"],
  ['src/engine/redis/x.ts', "import { RedisServer } from './server';"],
  ['src/engine/sim/x.test.ts', "import { createWorld } from '../scenario/world';"],
  ['src/ui/x.ts', "import { runScenario } from '../engine/scenario/run';"],
  ['src/engine/explore/x.ts', "import { runScenario } from '../scenario/run';"],
];

// The first lint loads the config and the TypeScript parser: slow on a loaded machine.
describe('the engine layer rule (eslint.config.js)', { timeout: 60_000 }, () => {
  it.each(refused)('refuses an import in %s: %s', async (file, code) => {
    expect(await importErrors(file, code)).toHaveLength(1);
  });

  it.each(downward)('allows a downward import in %s: %s', async (file, code) => {
    expect(await importErrors(file, code)).toEqual([]);
  });
});
