/**
 * One oracle run on real processes: the topology's redis-servers, MONITOR on each data node, one
 * JVM per scenario client, warmed up and released together at time 0, the scenario's faults
 * applied at their times, then every node's keyspace. Every process is stopped by pid at the end.
 * A scenario with a partition runs each node and JVM in a network namespace of its own (netns.ts),
 * the others on loopback.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Scenario } from '../engine/scenario/schema';
import type { Reply } from '../engine/redis/reply';
import { RespClient } from '../testing/redis/resp_client';
import { delay, signal, stop, stopAll } from './procs';
import { call, crashNode, startDeployment, startNode, stopDeployment, type Deployment, type RedisNode } from './redis_nodes';
import { createNetNs, type NetNs } from './netns';
import { startMonitor, type MonitorLine } from './monitor';
import { compileHarness, startJvm, type Jvm, type JvmEvent } from './jvm';
import { lockTypes } from './refusals';

export interface KeyDump {
  key: string;
  type: string;
  value: string | string[] | [string, string][];
  /** ms after time 0 at which it expires (snapshot time + PTTL), null without a TTL */
  expireAt: number | null;
}

export interface AppliedFault {
  at: number;
  /** when it really happened, ms after time 0 */
  applied: number;
  kind: string;
  target: string;
}

export interface RealObservation {
  release: string;
  redisVersion: string;
  t0Epoch: number;
  endT: number;
  ports: Record<string, number>;
  monitor: MonitorLine[];
  jvm: Record<string, JvmEvent[]>;
  /** every data node that was a master at the end, with its keys */
  keyspace: Record<string, KeyDump[]>;
  crashed: string[];
  faults: AppliedFault[];
  /** `uptime`-style load averages when the run started */
  load: string;
}

export interface RealRunOptions {
  release: string;
  cp: string;
  /** how long the model's run lasted: the real run is cut at this plus a margin */
  modelEndMs: number;
  /** cut the real run here instead (ms after time 0; `--cut`, invariants recordings only) */
  cutMs?: number;
  log(line: string): void;
}

/** after the last thread ended: the model's run also ends with the commands its calls left in flight */
const SETTLE_MS = 300;

const NAIVE_SCRIPT = 'src/engine/naive/scripts/compare_and_delete.lua';

export async function runReal(s: Scenario, opts: RealRunOptions): Promise<RealObservation> {
  const work = mkdtempSync(join(tmpdir(), 'lockscope-oracle-run-'));
  const load = loadavg().map((x) => x.toFixed(2)).join(', ');
  let dep: Deployment | null = null;
  let net: NetNs | null = null;
  const monitor = startMonitor();
  const jvms: Jvm[] = [];
  try {
    opts.log(`compiling the harness against Redisson ${opts.release}`);
    const classes = compileHarness(opts.cp);
    if (needsNetns(s)) {
      net = createNetNs([...endpointIds(s), ...s.clients.map((c) => c.id)]);
      opts.log(`one network namespace per node and client, bridged at ${net.hostIp}`);
    }
    opts.log(`starting ${s.redis.topology} redis-servers`);
    dep = await startDeployment(s, work, net);
    const ports: Record<string, number> = {};
    for (const n of dep.nodes) ports[n.id] = n.port;
    for (const n of dep.nodes) if (n.kind === 'data') monitor.attach(n.id, n.port, n.host);
    await delay(200);

    const config = clientConfig(s, dep, opts.release);
    opts.log(`starting ${s.clients.length} JVMs and warming them up`);
    for (const c of s.clients)
      jvms.push(
        startJvm(c.id, opts.cp, classes, { ...config, client: c.id, threads: c.threads }, work, (cmd, args) =>
          net ? net.wrap(c.id, cmd, args) : { cmd, args },
        ),
      );
    await Promise.all(jvms.map((j) => withTimeout(j.ready, 90_000, `JVM ${j.client} to get ready`)));

    // The warm-up's keys and cached scripts must not be there at time 0.
    for (const m of dep.nodes.filter((n) => n.kind === 'data')) {
      const info = await call(m, ['ROLE']);
      if (info.t === 'array' && info.v?.[0]?.t === 'bulk' && info.v[0].v === 'master') {
        await call(m, ['SCRIPT', 'FLUSH']);
        await call(m, ['FLUSHALL']);
      } else {
        await call(m, ['SCRIPT', 'FLUSH']);
      }
    }
    await delay(300);
    const crashed: string[] = [];
    const faults: AppliedFault[] = [];
    const timers: NodeJS.Timeout[] = [];
    let t0Epoch = Date.now() + 300;
    const rel = () => Date.now() - t0Epoch;
    // as the model's: a partition replaces the one in force, and its heal ends whichever is
    const partition = async (f: Extract<Scenario['faults'][number], { kind: 'partition' }>, n: NetNs) => {
      await n.partition(f.groups);
      faults.push({ at: f.at, applied: rel(), kind: 'partition', target: f.groups.map((g) => g.join(',')).join(' | ') });
      if (f.healAt !== undefined)
        timers.push(
          globalThis.setTimeout(
            () => void n.heal().then(() => faults.push({ at: f.healAt!, applied: rel(), kind: 'heal', target: '' })),
            Math.max(0, t0Epoch + f.healAt - Date.now()),
          ),
        );
    };
    // a partition at 0 is in force before the first command (the model applies it first): set it up
    // while the clients wait for time 0, not a few ms after it
    const atZero = s.faults.filter((f) => f.kind === 'partition' && f.at === 0);
    for (const f of atZero) if (f.kind === 'partition' && net) await partition(f, net);
    t0Epoch = Math.max(t0Epoch, Date.now() + 50);
    for (const j of jvms) j.send(`go ${t0Epoch}`);
    await delay(t0Epoch - Date.now());
    opts.log('time 0');

    const jvmOf = (id: string) => jvms.find((j) => j.client === id)!;
    for (const f of s.faults) {
      if (atZero.includes(f)) continue;
      const fire = async () => {
        if (f.kind === 'pause') {
          const j = jvmOf(f.client);
          signal(j.proc, 'SIGSTOP');
          faults.push({ at: f.at, applied: rel(), kind: 'pause', target: f.client });
          timers.push(
            globalThis.setTimeout(() => {
              signal(j.proc, 'SIGCONT');
              faults.push({ at: f.at + f.ms, applied: rel(), kind: 'resume', target: f.client });
            }, f.ms),
          );
        } else if (f.kind === 'crash' && 'client' in f && f.client !== undefined) {
          await stop(jvmOf(f.client).proc);
          crashed.push(f.client);
          faults.push({ at: f.at, applied: rel(), kind: 'crash', target: f.client });
        } else if (f.kind === 'crash' && 'node' in f && f.node !== undefined) {
          faults.push({ at: f.at, applied: rel(), kind: 'crash', target: f.node });
          await crashNode(dep!.node(f.node));
        } else if (f.kind === 'restart') {
          const n = dep!.node(f.node);
          await startNode(n);
          faults.push({ at: f.at, applied: rel(), kind: 'restart', target: f.node });
          monitor.attach(n.id, n.port, n.host);
        } else if (f.kind === 'partition' && net) {
          await partition(f, net);
        } else if (f.kind === 'interrupt') {
          jvmOf(f.client).send(`interrupt ${f.thread}`);
          faults.push({ at: f.at, applied: rel(), kind: 'interrupt', target: `${f.client}:${f.thread}` });
        } else if (f.kind === 'cancel') {
          jvmOf(f.client).send(`cancel ${f.thread}`);
          faults.push({ at: f.at, applied: rel(), kind: 'cancel', target: `${f.client}:${f.thread}` });
        } else if (f.kind === 'stall') {
          // the whole server is busy: commands queue on their connections, no active expiry
          faults.push({ at: f.at, applied: rel(), kind: 'stall', target: f.node });
          await call(dep!.node(f.node).port, ['DEBUG', 'SLEEP', (f.ms / 1000).toFixed(3)]);
        } else {
          throw new Error(`fault ${f.kind} has no real counterpart (refusals.ts should have refused it)`);
        }
      };
      timers.push(globalThis.setTimeout(() => void fire(), Math.max(0, t0Epoch + f.at - Date.now())));
    }

    const cap = s.until ?? opts.cutMs ?? opts.modelEndMs + 10_000;
    const allEnded = Promise.all(jvms.map((j) => j.ended));
    if (s.until !== null) await delay(t0Epoch + s.until - Date.now());
    else await Promise.race([allEnded, delay(t0Epoch + cap - Date.now())]);
    // what a client sends right after its last call returns (the unlock latch's DEL) lands first
    if (s.until === null) await delay(SETTLE_MS);
    const endT = rel();
    for (const t of timers) clearTimeout(t);
    for (const j of jvms) signal(j.proc, 'SIGCONT');
    opts.log(`end at ${endT} ms; reading the keyspace`);
    const keyspace: Record<string, KeyDump[]> = {};
    for (const n of dep.nodes.filter((x) => x.kind === 'data')) {
      try {
        // replicas may still be receiving the last writes: only masters' keys are compared
        const role = await call(n, ['ROLE']);
        if (role.t !== 'array' || role.v?.[0]?.t !== 'bulk' || role.v[0].v !== 'master') continue;
        keyspace[n.id] = await dump(n, endT);
      } catch {
        // a crashed node has no keyspace to read
      }
    }
    for (const j of jvms) j.send('quit');
    await delay(300);
    await monitor.stopAll();
    const jvm: Record<string, JvmEvent[]> = {};
    for (const j of jvms) jvm[j.client] = j.events;
    return {
      release: opts.release,
      redisVersion: dep.redisVersion,
      t0Epoch,
      endT,
      ports,
      monitor: monitor.lines,
      jvm,
      keyspace,
      crashed,
      faults,
      load,
    };
  } catch (e) {
    for (const j of jvms) if (j.stderr.length > 0) opts.log(`--- ${j.client} stderr:\n${j.stderr.slice(-20).join('\n')}`);
    throw e;
  } finally {
    await monitor.stopAll();
    for (const j of jvms) await stop(j.proc);
    await stopDeployment(dep);
    await stopAll();
    net?.close();
    rmSync(work, { recursive: true, force: true });
  }
}

function clientConfig(s: Scenario, dep: Deployment, release: string): Record<string, unknown> {
  const topo = s.redis.topology;
  const hostPort = (n: RedisNode) => `${n.host}:${n.port}`;
  const addr = (n: RedisNode) => `redis://${hostPort(n)}`;
  let addresses: string[];
  let rawAddress: string;
  if (topo === 'sentinel') {
    const sentinels = dep.nodes.filter((n) => n.kind === 'sentinel');
    addresses = sentinels.map(addr);
    rawAddress = `sentinel:${dep.masterName}@${sentinels.map(hostPort).join(',')}`;
  } else {
    addresses = dep.masters.map(addr);
    rawAddress = hostPort(dep.masters[0]);
  }
  return {
    release,
    mode: topo,
    addresses,
    rawAddress,
    masterName: dep.masterName,
    redisson: s.redisson,
    lockTypes: [...lockTypes(s)],
    // threads whose acquire a `cancel` fault may cancel: they acquire through lockAsync(...).get()
    cancelable: s.faults.flatMap((f) => (f.kind === 'cancel' && f.client !== undefined ? [`${f.client}:${f.thread}`] : [])),
    naiveScript: readFileSync(NAIVE_SCRIPT, 'utf8'),
  };
}

async function dump(node: RedisNode, endT: number): Promise<KeyDump[]> {
  const c = await RespClient.connect(node.port, node.host);
  try {
    const keys = strs(await c.call(['KEYS', '*'])).sort();
    const out: KeyDump[] = [];
    for (const key of keys) {
      const type = str(await c.call(['TYPE', key]));
      let value: KeyDump['value'];
      if (type === 'string') value = str(await c.call(['GET', key]));
      else if (type === 'hash') value = pairs(strs(await c.call(['HGETALL', key])));
      else if (type === 'list') value = strs(await c.call(['LRANGE', key, '0', '-1']));
      else if (type === 'zset') value = pairs(strs(await c.call(['ZRANGE', key, '0', '-1', 'WITHSCORES'])));
      else if (type === 'set') value = strs(await c.call(['SMEMBERS', key])).sort();
      else value = '';
      const pttl = await c.call(['PTTL', key]);
      const ms = pttl.t === 'int' ? Number(pttl.v) : -1;
      out.push({ key, type, value, expireAt: ms >= 0 ? endT + ms : null });
    }
    return out;
  } finally {
    c.close();
  }
}

/** A partition needs the network namespaces; every other scenario runs on loopback, as recorded. */
export function needsNetns(s: Scenario): boolean {
  return s.faults.some((f) => f.kind === 'partition');
}

/** The scenario's node ids as the deployment names them (single, replicated, Sentinel, independent). */
function endpointIds(s: Scenario): string[] {
  const r = s.redis;
  if (r.topology === 'independent') return Array.from({ length: r.masters }, (_, i) => `master-${i + 1}`);
  const ids = ['master', ...r.replicas.map((_, i) => `replica-${i + 1}`)];
  if (r.topology === 'sentinel') for (let i = 1; i <= r.sentinel.count; i++) ids.push(`sentinel-${i}`);
  return ids;
}

function str(r: Reply): string {
  return r.t === 'bulk' || r.t === 'status' ? (r.v ?? '') : '';
}

function strs(r: Reply): string[] {
  return r.t === 'array' && r.v ? r.v.map(str) : [];
}

function pairs(a: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < a.length; i += 2) out.push([a[i], a[i + 1]]);
  return out;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    p,
    new Promise<T>((_, rej) => globalThis.setTimeout(() => rej(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms)),
  ]);
}
