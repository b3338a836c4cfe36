/** A clock that only moves when a test moves it. */
import type { Clock } from '../../src/store/clock.ts';

export interface ManualClock extends Clock {
  set(instant: Date): void;
  advance(ms: number): Date;
}

export function createManualClock(start: Date): ManualClock {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    set(instant) {
      current = instant.getTime();
    },
    advance(ms) {
      current += ms;
      return new Date(current);
    },
  };
}
