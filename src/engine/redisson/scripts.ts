/**
 * The Lua text Redisson sends, per release, byte for byte (scripts/*.ts hold every variant, taken
 * from the release tags). The scripts run for real on the simulated node's Lua VM; nothing here
 * re-implements them.
 */
import { FORCE_UNLOCK, LOCK, RENEW, RENEW_BATCH, UNLOCK } from './scripts/RedissonLock';
import { allRedissonScripts } from './scripts/index';
import type { ScriptFamily } from './scripts/family';
import { trustScriptBodies } from '../redis/script_lua';
import { registerScriptLayout } from '../redis/script_layout';
import type { VersionTraits } from './versions';
import type { RedissonScriptTexts } from './config';

// Every Redisson script only reads KEYS/ARGV and calls redis.call: a Lua state that ran nothing
// else may serve another node once its run is over (redis/script_lua.ts). An edited text is not
// among them, so a state that compiled one is never reused. Each is shown on its Java lines.
for (const s of allRedissonScripts()) registerScriptLayout(s.text, s.lines);
trustScriptBodies(allRedissonScripts().map((s) => s.text));

/** The text of `family` that the release of `traits` sends. */
export function scriptText(family: ScriptFamily, traits: VersionTraits): string {
  return family.at(traits.release).text;
}

/**
 * Does the release pass the publish command (PUBLISH or SPUBLISH) to its scripts as an ARGV?
 * From 3.22.0, with sharded pub/sub (823c786, #5047); before, the scripts say 'publish'.
 */
export function publishInArgv(traits: VersionTraits): boolean {
  return traits.shardedLockPubSub !== 'classic';
}

export interface LockScripts {
  /** KEYS[1] lock; ARGV lease, lockName → nil | pttl */
  readonly lock: string;
  /** 3.24+: KEYS lock, channel, latch; ARGV 0, lease, lockName, publish, latchTtl. Before: KEYS lock, channel; ARGV 0, lease, lockName [, publish from 3.22] */
  readonly unlock: string;
  /** KEYS lock, channel; ARGV 0 [, publish from 3.22] */
  readonly forceUnlock: string;
  /** 3.44+ batched: KEYS locks; ARGV lease, lockName... → list of 1/0. Before: KEYS[1] lock; ARGV lease, lockName → 1/0 */
  readonly renew: string;
}

export function lockScripts(traits: VersionTraits): LockScripts {
  return {
    lock: scriptText(LOCK, traits),
    unlock: scriptText(UNLOCK, traits),
    forceUnlock: scriptText(FORCE_UNLOCK, traits),
    renew: scriptText(traits.renewal === 'batched-task' ? RENEW_BATCH : RENEW, traits),
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
