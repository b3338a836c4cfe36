/**
 * Admission before authentication: a bounded number of requests at once, per client address and in all,
 * answered at once past that, before a byte of their body is read. A protocol whose requests carry large
 * bodies from senders not yet known puts one in front of its route (`../cxml/admission.ts`).
 */

export interface AdmissionGate {
  /** A release function when the request may proceed, undefined when it must be refused now. */
  enter(address: string): (() => void) | undefined;
}

/**
 * @example
 * const gate = createAdmissionGate({ perAddress: 8, total: 16 });
 * const release = gate.enter(address);
 * if (release === undefined) return refuse();
 * try { await next(); } finally { release(); }
 */
export function createAdmissionGate(limits: { perAddress: number; total: number }): AdmissionGate {
  const inFlight = new Map<string, number>();
  let total = 0;
  return {
    enter(address) {
      const mine = inFlight.get(address) ?? 0;
      if (total >= limits.total || mine >= limits.perAddress) return undefined;
      total++;
      inFlight.set(address, mine + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        total--;
        const left = (inFlight.get(address) ?? 1) - 1;
        if (left === 0) inFlight.delete(address);
        else inFlight.set(address, left);
      };
    },
  };
}
