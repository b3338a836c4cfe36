/**
 * The sandbox's virtual clock: a base clock (real time, or a fixed one in tests) plus an offset that the
 * control API advances, so session expiry and file merges can be shown without waiting.
 */

export class VirtualClock {
  readonly #base: () => number;
  #offsetMs = 0;

  constructor(base: () => number) {
    this.#base = base;
  }

  /** Milliseconds since the epoch on the virtual clock. */
  now(): number {
    return this.#base() + this.#offsetMs;
  }

  advance(seconds: number): void {
    this.#offsetMs += seconds * 1000;
  }

  get offsetSeconds(): number {
    return this.#offsetMs / 1000;
  }

  reset(): void {
    this.#offsetMs = 0;
  }
}
