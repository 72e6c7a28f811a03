/**
 * The Lua text Redisson sends for RLock, per preset (versions.ts). The scripts run for real on the
 * simulated node's Lua VM; nothing here re-implements them.
 */
import lockLua from './scripts/lock.lua?raw';
import lock311Lua from './scripts/lock_3_11.lua?raw';
import unlockLua from './scripts/unlock.lua?raw';
import unlock311Lua from './scripts/unlock_3_11.lua?raw';
import forceUnlockLua from './scripts/force_unlock.lua?raw';
import forceUnlock311Lua from './scripts/force_unlock_3_11.lua?raw';
import renewLua from './scripts/renew.lua?raw';
import renewSingleLua from './scripts/renew_single.lua?raw';
import fairLockLua from './scripts/fair_lock.lua?raw';
import fairTryLockLua from './scripts/fair_try_lock.lua?raw';
import fairAcquireFailedLua from './scripts/fair_acquire_failed.lua?raw';
import fairUnlockLua from './scripts/fair_unlock.lua?raw';
import fairForceUnlockLua from './scripts/fair_force_unlock.lua?raw';
import fencedLockLua from './scripts/fenced_lock.lua?raw';
import readLockLua from './scripts/read_lock.lua?raw';
import readUnlockLua from './scripts/read_unlock.lua?raw';
import writeLockLua from './scripts/write_lock.lua?raw';
import writeUnlockLua from './scripts/write_unlock.lua?raw';
import rwForceUnlockLua from './scripts/rw_force_unlock.lua?raw';
import spinUnlockLua from './scripts/spin_unlock.lua?raw';
import readRenewLua from './scripts/read_renew.lua?raw';
import readRenew343Lua from './scripts/read_renew_3_43.lua?raw';
import { trustScriptBodies } from '../redis/script_lua';
import type { VersionTraits } from './versions';
import type { RedissonScriptTexts } from './config';

// Every script of scripts/ only reads KEYS/ARGV and calls redis.call: a Lua state that ran
// nothing else may serve another node once its run is over (redis/script_lua.ts). An edited text
// is not among them, so a state that compiled one is never reused.
trustScriptBodies([
  lockLua,
  lock311Lua,
  unlockLua,
  unlock311Lua,
  forceUnlockLua,
  forceUnlock311Lua,
  renewLua,
  renewSingleLua,
  fairLockLua,
  fairTryLockLua,
  fairAcquireFailedLua,
  fairUnlockLua,
  fairForceUnlockLua,
  fencedLockLua,
  readLockLua,
  readUnlockLua,
  writeLockLua,
  writeUnlockLua,
  rwForceUnlockLua,
  spinUnlockLua,
  readRenewLua,
  readRenew343Lua,
]);

export interface LockScripts {
  /** KEYS[1] lock; ARGV lease, lockName → nil | pttl */
  readonly lock: string;
  /** latch form: KEYS lock, channel, latch; ARGV 0, lease, lockName, PUBLISH, latchTtl. Otherwise KEYS lock, channel; ARGV 0, lease, lockName */
  readonly unlock: string;
  /** KEYS lock, channel; ARGV 0 [, PUBLISH] */
  readonly forceUnlock: string;
  /** batched: KEYS locks; ARGV lease, lockName... → list of 1/0. single: KEYS[1] lock; ARGV lease, lockName → 1/0 */
  readonly renew: string;
}

export function lockScripts(traits: VersionTraits): LockScripts {
  if (traits.preset === '3.11') {
    return { lock: lock311Lua, unlock: unlock311Lua, forceUnlock: forceUnlock311Lua, renew: renewSingleLua };
  }
  return {
    lock: lockLua,
    // 3.12.3–3.23.x unlock the classic way, without the latch key
    unlock: traits.unlockLatch ? unlockLua : unlock311Lua,
    forceUnlock: forceUnlockLua,
    renew: traits.renewal === 'batched-task' ? renewLua : renewSingleLua,
  };
}

/**
 * The release's scripts with a scenario's edited texts in their place. The client sends an edited
 * text like the original (EVALSHA of its own SHA-1, SCRIPT LOAD on NOSCRIPT; EVAL on releases
 * without the script cache), so the node's Lua VM runs exactly what the learner wrote.
 */
export function withEditedScripts(scripts: LockScripts, edits: RedissonScriptTexts | undefined): LockScripts {
  if (edits === undefined) return scripts;
  return {
    ...scripts,
    lock: edits.lock ?? scripts.lock,
    unlock: edits.unlock ?? scripts.unlock,
    renew: edits.renew ?? scripts.renew,
  };
}
