/** The one source of "now", so tests can move time without touching the system clock. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export class ManualClock implements Clock {
  constructor(private t: Date = new Date()) {}
  now(): Date {
    return new Date(this.t.getTime());
  }
  advance(ms: number): void {
    this.t = new Date(this.t.getTime() + ms);
  }
  set(d: Date): void {
    this.t = new Date(d.getTime());
  }
}
