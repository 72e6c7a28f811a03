/** The built-in scenario library, in the order a newcomer meets the ideas. */
import type { BuiltinScenario } from './types';
import { basicLock, contentionWakeup, reentrant, trylockTimeout, unlockNotOwner } from './redisson_basics';
import {
  clientCrashWatchdogExpiry,
  gcPauseLeaseExpiry,
  leaseExpiryNoWatchdog,
  watchdogRenewal,
} from './leases';
import {
  naiveDeleteOthersLock,
  naiveGetDelRace,
  naiveLuaDelSafe,
  naiveSetnxDeadlock,
  naiveWatchMultiRelease,
} from './naive';
import { contention100, stockOversellNoLock, stockWithLock } from './resource';
import {
  failoverLostLock,
  failoverWaitHelps,
  failoverWaitWrongReplica,
  splitBrainPartition,
} from './replication';
import {
  fairLockFifo,
  fencingAfterFailover,
  fencingSavesGcPause,
  multilockAllOrNothing,
  redlockClockJump,
  redlockHappy,
  redlockPauseAfterValidity,
  rwLockReadersThenWriter,
  spinLockPolling,
} from './family';
import {
  clusterFailoverLostLock,
  clusterHashTags,
  clusterMovedStaleMap,
  clusterMultilockShards,
  clusterWhichNode,
} from './cluster';
import { incidents } from './incidents/index';

export type { BuiltinScenario } from './types';

export const builtins: readonly BuiltinScenario[] = [
  basicLock,
  reentrant,
  contentionWakeup,
  trylockTimeout,
  leaseExpiryNoWatchdog,
  watchdogRenewal,
  clientCrashWatchdogExpiry,
  gcPauseLeaseExpiry,
  unlockNotOwner,
  naiveSetnxDeadlock,
  naiveDeleteOthersLock,
  naiveGetDelRace,
  naiveLuaDelSafe,
  stockOversellNoLock,
  stockWithLock,
  contention100,
  naiveWatchMultiRelease,
  failoverLostLock,
  failoverWaitHelps,
  failoverWaitWrongReplica,
  splitBrainPartition,
  fencingSavesGcPause,
  fairLockFifo,
  rwLockReadersThenWriter,
  spinLockPolling,
  multilockAllOrNothing,
  redlockHappy,
  redlockClockJump,
  redlockPauseAfterValidity,
  fencingAfterFailover,
  clusterWhichNode,
  clusterHashTags,
  clusterFailoverLostLock,
  clusterMovedStaleMap,
  clusterMultilockShards,
  ...incidents,
];

export function builtin(id: string): BuiltinScenario | undefined {
  return builtins.find((b) => b.id === id);
}
