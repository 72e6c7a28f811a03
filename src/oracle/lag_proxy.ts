/**
 * Replication lag on loopback: a replica replicates through this proxy, which holds the master's
 * stream for `lagMs` before passing it on (the replica's acks go back at once). It models what
 * the simulator's `lagMs` means, "the time before the write has left the master": when the
 * master crashes, what the proxy still holds is dropped, as a write that never left would be.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface LagProxy {
  /** where it listens (and the address its upstream connections come from) */
  readonly host: string;
  readonly port: number;
  /** the upstream crashed: drop everything still held and close every link */
  dropAll(): void;
  close(): Promise<void>;
}

export function startLagProxy(
  upstream: { readonly host: string; readonly port: number },
  lagMs: number,
  host = '127.0.0.1',
): Promise<LagProxy> {
  const links = new Set<{ down: Socket; up: Socket; timers: Set<NodeJS.Timeout> }>();
  const server: Server = createServer((down) => {
    const up = connect({ port: upstream.port, host: upstream.host, localAddress: host });
    const link = { down, up, timers: new Set<NodeJS.Timeout>() };
    links.add(link);
    down.setNoDelay(true);
    up.setNoDelay(true);
    down.on('data', (b) => up.write(b));
    up.on('data', (b) => {
      const t = globalThis.setTimeout(() => {
        link.timers.delete(t);
        if (!down.destroyed) down.write(b);
      }, lagMs);
      link.timers.add(t);
    });
    const end = () => {
      for (const t of link.timers) clearTimeout(t);
      links.delete(link);
      down.destroy();
      up.destroy();
    };
    // the replica sees its master go away only after the bytes in flight had their lag
    up.on('close', () => globalThis.setTimeout(end, link.timers.size > 0 ? lagMs : 0));
    up.on('error', () => undefined);
    down.on('error', () => undefined);
    down.on('close', end);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      const addr = server.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      resolve({
        host,
        port,
        dropAll() {
          for (const l of links) {
            for (const t of l.timers) clearTimeout(t);
            l.timers.clear();
            l.down.destroy();
            l.up.destroy();
          }
          links.clear();
        },
        close: () =>
          new Promise<void>((res) => {
            for (const l of links) {
              l.down.destroy();
              l.up.destroy();
            }
            server.close(() => res());
          }),
      });
    });
  });
}
