/** The built-in scenario library but the real incidents, in the order a newcomer meets the ideas. */
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

/**
 * Every built-in but the real incidents: what the page's first screen offers. The engine worker
 * imports only these up front and the incidents' module (their stories and runs, about 29 KB gzip)
 * when the page asks for it (src/ui/engine-adapter-incidents.ts).
 */
export const coreBuiltins: readonly BuiltinScenario[] = [
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
];
