/**
 * Real network partitions for the oracle: every endpoint of a scenario (each redis-server, each
 * Sentinel, each client's JVM) runs in a Linux network namespace of its own, joined by a veth
 * pair to one bridge in the root namespace, where the harness itself has an address (MONITOR,
 * the keyspace dump, the lag proxies). A partition is a set of DROP rules between the endpoints'
 * addresses in one nftables table of the bridge family, replaced atomically at each partition and
 * flushed at the heal. The harness's own address is never in a rule. DROP, not REJECT: the
 * segments are lost on the wire and TCP retransmits them, as across a real partition.
 *
 * Everything is named after the orchestrator's pid (`lso<pid>`, `lso<pid>-<id>`), is removed at
 * the end of a run, on failure and on Ctrl-C, and left-overs of a run whose process is gone are
 * removed before the next one starts. Needs root (CAP_NET_ADMIN, CAP_SYS_ADMIN), `ip` and `nft`.
 */
import { execFileSync } from 'node:child_process';
import { onCleanup, start, stop } from './procs';

export interface NetNs {
  /** the harness's address on the bridge: never partitioned */
  readonly hostIp: string;
  /** an endpoint's address (node id or client id) */
  ip(id: string): string;
  /** the command line that runs `cmd` inside an endpoint's namespace (same pid: `ip netns exec` execs it) */
  wrap(id: string, cmd: string, args: readonly string[]): { cmd: string; args: string[] };
  /**
   * One more harness address that stands for endpoint `id` in partitions: a lag proxy relaying a
   * replica's replication stream listens and connects from it, so a rule that cuts the replica
   * cuts its proxied link too.
   */
  alias(id: string): string;
  /** only endpoints of the same group can talk; an endpoint in no group reaches everyone */
  partition(groups: readonly (readonly string[])[]): Promise<void>;
  heal(): Promise<void>;
  /** removes every namespace, veth, address and rule of this run */
  close(): void;
}

/** Whether this machine can run the netns harness; null when it can, else what is missing. */
export function netnsMissing(): string | null {
  if (typeof process.getuid === 'function' && process.getuid() !== 0)
    return 'partitions need root (network namespaces and nftables rules): run the oracle as root';
  for (const tool of ['ip', 'nft'])
    try {
      execFileSync(tool, ['-V'], { stdio: 'ignore' });
    } catch {
      return `partitions need \`${tool}\` (Debian: apt-get install ${tool === 'ip' ? 'iproute2' : 'nftables'})`;
    }
  return null;
}

const PREFIX = 'lso';

function sh(cmd: string, args: readonly string[], input?: string): void {
  execFileSync(cmd, args, { stdio: ['pipe', 'ignore', 'pipe'], ...(input === undefined ? {} : { input }) });
}

function quiet(cmd: string, args: readonly string[]): void {
  try {
    sh(cmd, args);
  } catch {
    // already gone
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes namespaces, bridges and nft tables left by an oracle run whose process is gone. */
export function removeStale(): void {
  const owner = (name: string) => {
    const m = new RegExp(`^${PREFIX}(\\d+)`).exec(name);
    return m ? Number(m[1]) : null;
  };
  const stale = (name: string) => {
    const pid = owner(name);
    return pid !== null && pid !== process.pid && !alive(pid);
  };
  const list = (cmd: string, args: string[]) => {
    try {
      return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
    } catch {
      return '';
    }
  };
  for (const line of list('ip', ['netns', 'list']).split('\n')) {
    const name = line.split(' ')[0];
    if (!name || !stale(name)) continue;
    // processes a dead run started in its namespaces (by pid: `ip netns pids` lists them)
    for (const pid of list('ip', ['netns', 'pids', name]).split('\n').filter(Boolean))
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // gone already
      }
    quiet('ip', ['netns', 'del', name]);
  }
  // the bridge, and the root's ends of veths whose namespace outlived its deletion (`lso<pid>v<i>@ifN`)
  for (const line of list('ip', ['-br', 'link']).split('\n')) {
    const name = line.split(/[ @]/)[0];
    if (name && stale(name)) quiet('ip', ['link', 'del', name]);
  }
  for (const m of list('nft', ['list', 'tables', 'bridge']).matchAll(/table bridge (\S+)/g))
    if (stale(m[1])) quiet('nft', ['delete', 'table', 'bridge', m[1]]);
}

/**
 * Creates one namespace per endpoint. `endpoints` are node ids and client ids; `"sentinels"` in a
 * partition group stands for every `sentinel-N`.
 */
export function createNetNs(endpoints: readonly string[]): NetNs {
  removeStale();
  const tag = `${PREFIX}${process.pid}`;
  // one /24 per orchestrator pid, so that a left-over of another run cannot shadow this one's
  const net = `10.77.${20 + (process.pid % 200)}`;
  const hostIp = `${net}.1`;
  const ips = new Map<string, string>();
  const aliases = new Map<string, string[]>();
  const namespaces: string[] = [];
  let nextAlias = 200;
  let closed = false;
  // one long-lived `nft -i`: a partition then takes about a millisecond, not a fork and exec
  const nft = start('nft', 'nft', ['-i'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let listed = '';
  const waiting: { resolve: () => void; reject: (e: Error) => void }[] = [];
  nft.child.stdout?.on('data', (d: Buffer) => {
    listed += d.toString();
    // each change is followed by a listing of the table: its closing brace acknowledges the change
    for (let end = listed.indexOf('\n}\n'); end >= 0; end = listed.indexOf('\n}\n')) {
      listed = listed.slice(end + 3);
      waiting.shift()?.resolve();
    }
  });
  nft.child.stderr?.on('data', (d: Buffer) => {
    const e = new Error(`nft: ${d.toString().trim()}`);
    for (const w of waiting.splice(0)) w.reject(e);
  });

  const close = () => {
    if (closed) return;
    closed = true;
    void stop(nft);
    quiet('nft', ['delete', 'table', 'bridge', tag]);
    // a namespace outlives its deletion while TCP still retransmits from it (to a peer across a
    // partition): deleting the root's end of each veth removes the pair at once
    namespaces.forEach((ns, i) => {
      quiet('ip', ['link', 'del', `${tag}v${i}`]);
      quiet('ip', ['netns', 'del', ns]);
    });
    quiet('ip', ['link', 'del', tag]);
  };
  const unregister = onCleanup(close);

  try {
    sh('ip', ['link', 'add', tag, 'type', 'bridge']);
    sh('ip', ['addr', 'add', `${hostIp}/24`, 'dev', tag]);
    sh('ip', ['link', 'set', tag, 'up']);
    endpoints.forEach((id, i) => {
      const ns = `${tag}-${id}`;
      const ip = `${net}.${10 + i}`;
      const veth = `${tag}v${i}`;
      sh('ip', ['netns', 'add', ns]);
      namespaces.push(ns);
      sh('ip', ['link', 'add', veth, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns]);
      sh('ip', ['link', 'set', veth, 'master', tag, 'up']);
      sh('ip', ['-n', ns, 'addr', 'add', `${ip}/24`, 'dev', 'eth0']);
      sh('ip', ['-n', ns, 'link', 'set', 'eth0', 'up']);
      sh('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
      ips.set(id, ip);
    });
    sh(
      'nft',
      ['-f', '-'],
      `table bridge ${tag} {\n${CHAINS.map((c) => `  chain ${c} { type filter hook ${c} priority 0; policy accept; }`).join('\n')}\n}\n`,
    );
  } catch (e) {
    close();
    unregister();
    throw new Error(
      `could not set up the network namespaces: ${(e as { stderr?: Buffer }).stderr?.toString().trim() ?? String(e)}`,
      {
        cause: e,
      },
    );
  }

  const ipOf = (id: string) => {
    const ip = ips.get(id);
    if (ip === undefined) throw new Error(`no network namespace for ${id}`);
    return ip;
  };
  const members = (id: string): string[] => {
    const ids = id === 'sentinels' ? [...ips.keys()].filter((x) => x.startsWith('sentinel-')) : [id];
    return ids.flatMap((x) => [ipOf(x), ...(aliases.get(x) ?? [])]);
  };
  const apply = (rules: string[]) =>
    new Promise<void>((resolve, reject) => {
      const flush = CHAINS.map((c) => `flush chain bridge ${tag} ${c}`);
      waiting.push({ resolve, reject });
      // one line, one transaction: the old partition's rules go and the new ones come at once
      nft.child.stdin?.write(`${[...flush, ...rules].join('; ')}\nlist table bridge ${tag}\n`);
    });

  return {
    hostIp,
    ip: ipOf,
    wrap: (id, cmd, args) => ({ cmd: 'ip', args: ['netns', 'exec', `${tag}-${id}`, cmd, ...args] }),
    alias(id) {
      ipOf(id);
      const ip = `${net}.${nextAlias++}`;
      sh('ip', ['addr', 'add', `${ip}/24`, 'dev', tag]);
      aliases.set(id, [...(aliases.get(id) ?? []), ip]);
      return ip;
    },
    partition: (groups) =>
      apply(
        dropRules(
          tag,
          groups.map((g) => g.flatMap(members)),
        ),
      ),
    heal: () => apply([]),
    close() {
      close();
      unregister();
    },
  };
}

/** forward: between two namespaces; input/output: between a namespace and a harness alias (a lag proxy) */
const CHAINS = ['forward', 'input', 'output'] as const;

/**
 * The nftables rules of a partition whose groups have these addresses: every packet from one
 * group to another is dropped, both ways, on each hook. Addresses in no group are not named, so
 * they reach everyone (the model's rule, net/network.ts).
 */
export function dropRules(table: string, groups: readonly (readonly string[])[]): string[] {
  const rules: string[] = [];
  groups.forEach((from, i) =>
    groups.forEach((to, j) => {
      if (i === j || from.length === 0 || to.length === 0) return;
      for (const c of CHAINS)
        rules.push(
          `add rule bridge ${table} ${c} ip saddr { ${from.join(', ')} } ip daddr { ${to.join(', ')} } drop`,
        );
    }),
  );
  return rules;
}
