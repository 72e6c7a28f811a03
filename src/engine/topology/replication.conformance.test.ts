/**
 * Replication against a real Redis 7.0: a master and a replica on loopback, compared with the
 * simulator on the same commands. What is propagated is compared by its size (master_repl_offset
 * counts the bytes of the stream, so a different form shows as a different delta), by what the
 * replica ends up holding, and by WAIT's counts, READONLY, NOREPLICAS and their error strings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import type { Reply } from '../redis/reply';
import { RedisServer } from '../redis/server';
import {
  findRedisBinaries,
  missingBinaries,
  startRealRedis,
  type RealRedis,
} from '../../testing/redis/real_redis';
import { RespClient } from '../../testing/redis/resp_client';
import { simulate } from '../redisson/testing/simulate';
import { LOCK } from '../redisson/scripts/RedissonLock';

const lockLua = LOCK.at('4.7.0').text;

const OWNER = '8743c9c0-0795-4907-87fd-6c719a6b4586:1';

/** A simulated master and replica joined by an instant stream (lag is the topology's business). */
function simPair() {
  const clock = new ManualClock(1_700_000_000_000);
  const replica = new RedisServer({ clock, seed: 0 });
  replica.setRole('replica');
  const master = new RedisServer({
    clock,
    seed: 0,
    events: {
      propagate: (cmds) => {
        for (const argv of cmds) replica.applyFromMaster(argv);
      },
    },
  });
  master.repl.attach('replica-1', 0, clock.now());
  const mc = master.connect();
  const rc = replica.connect();
  return {
    clock,
    master,
    replica,
    onMaster: (...argv: string[]) => master.exec(mc, argv),
    onReplica: (...argv: string[]) => replica.exec(rc, argv),
  };
}

const text = (r: Reply) => (r.t === 'bulk' || r.t === 'status' || r.t === 'error' ? String(r.v) : '');
const sleep = (ms: number) => new Promise((res) => globalThis.setTimeout(res, ms));

const missing = missingBinaries(findRedisBinaries(), ['server']);
if (missing.length > 0) {
  const message = 'the replication checks need redis-server (Redis 7.0) on PATH';
  if (process.env.CI === 'true') {
    describe('replication on a real master and replica', () => {
      it('has a real redis-server to run on', () => {
        throw new Error(message);
      });
    });
  } else console.warn(`\n*** SKIPPED: ${message}\n`);
} else {
  describe('replication on a real master and replica', () => {
    let realMaster: RealRedis;
    let realReplica: RealRedis;
    let m: RespClient;
    let r: RespClient;
    const info = async (c: RespClient, field: string) => {
      const body = text(await c.call(['INFO', 'replication']));
      return new RegExp(`${field}:([^\\r\\n]*)`).exec(body)?.[1] ?? '';
    };
    const offset = async () => Number(await info(m, 'master_repl_offset'));
    /** Bytes the real master propagated for `argv` (the replica is in sync before and after). */
    const realDelta = async (argv: string[]) => {
      const before = await offset();
      const reply = await m.call(argv);
      return { reply, delta: (await offset()) - before };
    };

    beforeAll(async () => {
      realMaster = await startRealRedis();
      realReplica = await startRealRedis();
      m = await RespClient.connect(realMaster.port);
      r = await RespClient.connect(realReplica.port);
      // No PINGs in the stream while we measure it.
      await m.call(['CONFIG', 'SET', 'repl-ping-replica-period', '3600']);
      await r.call(['REPLICAOF', '127.0.0.1', String(realMaster.port)]);
      for (let i = 0; i < 100 && (await info(r, 'master_link_status')) !== 'up'; i++) await sleep(50);
      expect(await info(r, 'master_link_status')).toBe('up');
      // The server may have loaded a dump.rdb from the working directory: start empty. The first
      // write also carries SELECT 0; get it out of the way.
      await m.call(['FLUSHALL']);
      await m.call(['SET', 'warm', 'up']);
    }, 20_000);

    afterAll(async () => {
      m?.close();
      r?.close();
      await realReplica?.stop();
      await realMaster?.stop();
    });

    it('propagates the same bytes for writes, relative TTLs and a Redisson script', async () => {
      const sim = simPair();
      sim.onMaster('SET', 'warm', 'up');
      const cases: string[][] = [
        ['SET', 'k', 'v', 'PX', '100000'],
        ['PEXPIRE', 'k', '5000'],
        ['SET', 'k', 'v2', 'NX'],
        ['EVAL', lockLua, '1', 'myLock', '30000', OWNER],
        ['EVAL', lockLua, '1', 'myLock', '30000', OWNER],
        ['DEL', 'k', 'nokey'],
        ['PUBLISH', 'ch', 'm'],
      ];
      for (const argv of cases) {
        const before = sim.master.repl.offset;
        sim.onMaster(...argv);
        const { delta } = await realDelta(argv);
        expect([argv[0], sim.master.repl.offset - before]).toEqual([argv[0], delta]);
      }
      // The replica holds the same lock hash, with the lease as an absolute deadline.
      await sleep(100);
      expect(await r.call(['HGETALL', 'myLock'])).toEqual(sim.onReplica('HGETALL', 'myLock'));
      const pttl = await r.call(['PTTL', 'myLock']);
      expect(pttl.t).toBe('int');
      expect(Number((pttl as { v: number }).v)).toBeGreaterThan(29_000);
    });

    it('sends an expired key as DEL; the replica does not expire it by itself', async () => {
      const sim = simPair();
      sim.onMaster('SET', 'warm', 'up');
      const before = await offset();
      await m.call(['SET', 'e', 'v', 'PX', '50']);
      const afterSet = await offset();
      const simBefore = sim.master.repl.offset;
      sim.onMaster('SET', 'e', 'v', 'PX', '50');
      expect(sim.master.repl.offset - simBefore).toBe(afterSet - before);
      await sleep(400);
      const simAfterSet = sim.master.repl.offset;
      sim.clock.advance(400);
      // Before the master's DEL arrives a simulated replica still stores the key (hidden from reads).
      expect(sim.replica.db.has('e')).toBe(true);
      expect(sim.onReplica('GET', 'e')).toEqual({ t: 'bulk', v: null });
      sim.master.activeExpireCycle();
      expect(sim.replica.db.has('e')).toBe(false);
      expect(sim.master.repl.offset - simAfterSet).toBe((await offset()) - afterSet);
      expect(await r.call(['EXISTS', 'e'])).toEqual({ t: 'int', v: 0 });
    });

    it('WAIT counts the acknowledged replicas and returns the count reached at the timeout', async () => {
      await m.call(['SET', 'w', '1']);
      const one = await m.call(['WAIT', '1', '1000']);
      const started = Date.now();
      const two = await m.call(['WAIT', '2', '300']);
      const waited = Date.now() - started;
      expect([one, two]).toEqual([
        { t: 'int', v: 1 },
        { t: 'int', v: 1 },
      ]);
      expect(waited).toBeGreaterThanOrEqual(250);
      const s = simulate({
        format: 'lockscope/1',
        redis: { replicas: [{ lagMs: 1 }] },
        clients: [
          {
            id: 'A',
            threads: [
              {
                id: 1,
                program: [
                  { op: 'redis', argv: ['SET', 'w', '1'] },
                  { op: 'redis', argv: ['WAIT', '1', '1000'] },
                  { op: 'redis', argv: ['WAIT', '2', '300'] },
                ],
              },
            ],
          },
        ],
      });
      expect(s.results('A:1').slice(1)).toEqual([1, 1]);
      const waits = s.of('cmd', 'A:1').filter((e) => (e.argv as string[])[0] === 'WAIT');
      expect(waits[1].t - waits[0].t).toBeGreaterThanOrEqual(300);
    });

    it('answers WAIT argument errors, WAIT on a replica and writes to a replica with the same errors', async () => {
      const sim = simPair();
      for (const argv of [
        ['WAIT', '1', '-1'],
        ['WAIT', '1', 'abc'],
        ['WAIT', 'x', '1'],
      ])
        expect(sim.onMaster(...argv)).toEqual(await m.call(argv));
      for (const argv of [
        ['WAIT', '1', '100'],
        ['SET', 'x', '1'],
        ['EVAL', "return redis.call('set', 'x', '1')", '0'],
      ])
        expect(sim.onReplica(...argv)).toEqual(await r.call(argv));
    });

    it('refuses writes with NOREPLICAS under min-replicas-to-write, in scripts too; reads and PUBLISH go on', async () => {
      const sim = simPair();
      sim.master.repl.minReplicasToWrite = 2;
      await m.call(['CONFIG', 'SET', 'min-replicas-to-write', '2']);
      try {
        for (const argv of [
          ['SET', 'n', '1'],
          ['EVAL', "return redis.call('set', 'n', '1')", '0'],
          ['EVAL', "return redis.call('get', 'n')", '0'],
          ['GET', 'n'],
          ['PUBLISH', 'ch', 'm'],
        ])
          expect(sim.onMaster(...argv)).toEqual(await m.call(argv));
      } finally {
        await m.call(['CONFIG', 'SET', 'min-replicas-to-write', '0']);
      }
    });
  });
}
