/** The virtual clock every engine part reads. Owned by the simulation kernel; ms since scenario start. */
export interface Clock {
  now(): number;
}

/** A clock a test or the redis-cli can move by hand. */
export class ManualClock implements Clock {
  constructor(private t = 0) {}
  now(): number {
    return this.t;
  }
  set(t: number): void {
    this.t = t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}
