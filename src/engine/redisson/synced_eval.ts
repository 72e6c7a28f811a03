/**
 * What CommandAsyncService.syncedEval sends besides the script and its WAIT, by release (read
 * from the release tags; the oracle's recordings at 3.27.2 and 4.7.0 show it):
 * - 3.21.0 moved the synced call into CommandAsyncService, which reads a master's replica count
 *   with `INFO REPLICATION` when MasterSlaveEntry.getAvailableSlaves() is -1 (at first, and after
 *   a WAIT answered fewer replicas than expected); 3.46.0 reads `INFO ALL` (it also wants
 *   aof_enabled) and also forgets the count after a WAIT answered more.
 * - 3.26.1 probes once whether the server knows WAIT (`WAIT 0 0`); 3.46.0 probes WAIT and WAITAOF
 *   in one batch (`WAITAOF 0 0 0`, unknown to Redis 7.0).
 * - The script and WAIT go as one batch (CommandBatchService). With useScriptCache (3.46+) the
 *   batch sends `SCRIPT LOAD` first for a script the client has not loaded on that node, then
 *   EVALSHA; from 3.48.0 a NOSCRIPT answer (the node lost its scripts) loads the script and runs
 *   the whole syncedEval again.
 */
import type { Reply } from '../redis/reply';
import { compareVersions } from './versions';

export interface SyncedEvalRules {
  /** 3.21+: the batch path of CommandAsyncService.syncedEval; before, RedissonBaseLock's own */
  batch: boolean;
  /** the WAIT support probe, sent once per client (empty: none) */
  probe: string[][];
  /** how the replica count is read when it is unknown */
  info: string[];
  /** a WAIT that answered more replicas than expected also forgets the count */
  forgetOnMore: boolean;
  /** NOSCRIPT from the batch: load the script and run syncedEval again */
  reloadOnNoScript: boolean;
}

export function syncedEvalRules(release: string): SyncedEvalRules {
  const from = (v: string) => compareVersions(release, v) >= 0;
  const probe = !from('3.26.1')
    ? []
    : from('3.46.0')
      ? [
          ['WAIT', '0', '0'],
          ['WAITAOF', '0', '0', '0'],
        ]
      : [['WAIT', '0', '0']];
  return {
    batch: from('3.21.0'),
    probe,
    info: from('3.46.0') ? ['INFO', 'ALL'] : ['INFO', 'REPLICATION'],
    forgetOnMore: from('3.46.0'),
    reloadOnNoScript: from('3.48.0'),
  };
}

/** connected_slaves from an INFO reply (0 when it is missing, as Redisson's getOrDefault). */
export function connectedSlaves(info: Reply): number {
  if (info.t !== 'bulk' || info.v === null) return 0;
  const m = /(?:^|\n)connected_slaves:(\d+)/.exec(info.v);
  return m ? Number(m[1]) : 0;
}
