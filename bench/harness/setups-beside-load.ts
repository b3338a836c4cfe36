/**
 * A returning user's setups through the gateway, measured alone and beside a load that runs while they do
 * (big-po-beside-punch-in, strangers): the two variants, the p99 the load adds, and the goal for the
 * setups' p99 beside it.
 */
import { AUTOCANNON_METRICS } from './autocannon-load.ts';
import type { DifferenceSpec, Figures, LimitSpec, MetricSpec } from './bench-case.ts';
import { cxmlAccepted, cxmlPosts, returningUserSetup } from './cxml-posts.ts';

export interface SetupsBesideLoadOptions {
  /** The gateway the setups go to. */
  readonly gatewayUrl: string;
  readonly connections: number;
  readonly durationMs: number;
  /** What runs beside the setups, as the difference and the limit name it, e.g. 'the big POs'. */
  readonly loadName: string;
  /** The variant measured beside it, e.g. 'setup beside 5,000-line POs'. */
  readonly besideVariant: string;
  /** Runs for as long as `running()` says; answers how many documents it got through. */
  readonly load: (running: () => boolean) => Promise<number>;
  /** The load's rate as a figure of its own, reckoned from its count and the milliseconds it ran. */
  readonly rate: {
    readonly metric: string;
    readonly unit: string;
    readonly perSecond: (loaded: number, elapsedMs: number) => number;
  };
  /** The goal for the setups' p99 beside the load. */
  readonly p99AtMostMs: number;
}

const ALONE = 'setup alone';

export function setupsBesideLoad(options: SetupsBesideLoadOptions): {
  variants: Record<string, () => Promise<Figures>>;
  metrics: Record<string, MetricSpec>;
  differences: DifferenceSpec[];
  limits: LimitSpec[];
} {
  const { loadName, besideVariant, load, rate } = options;
  const setups = cxmlPosts({
    url: options.gatewayUrl,
    body: returningUserSetup(),
    connections: options.connections,
    durationMs: options.durationMs,
    accept: cxmlAccepted,
  });
  const beside = async (): Promise<Figures> => {
    const { figures, loaded, elapsedMs } = await besideLoad(setups, load);
    return { ...figures, [rate.metric]: rate.perSecond(loaded, elapsedMs) };
  };
  const alone = async (): Promise<Figures> => ({ ...(await setups()), [rate.metric]: 0 });
  return {
    variants: { [ALONE]: alone, [besideVariant]: beside },
    metrics: { ...AUTOCANNON_METRICS, [rate.metric]: { unit: rate.unit, better: 'higher' } },
    differences: [
      { name: `p99 added by ${loadName}`, metric: 'p99Ms', minuend: besideVariant, subtrahend: ALONE },
    ],
    limits: [
      {
        name: `setup p99 beside ${loadName}`,
        variant: besideVariant,
        metric: 'p99Ms',
        goal: { atMost: options.p99AtMostMs },
      },
    ],
  };
}

/**
 * Runs `setups` while `load` keeps going for as long as `running()` says; answers the setups' figures, how
 * many the load reported, and the milliseconds from starting the load to its end. When the setups fail,
 * the load is stopped and waited for before their error goes on: a load still running would otherwise
 * meet the servers and clients the case closes, and its error would end the bench in place of theirs.
 */
async function besideLoad(
  setups: () => Promise<Figures>,
  load: (running: () => boolean) => Promise<number>,
): Promise<{ figures: Figures; loaded: number; elapsedMs: number }> {
  let running = true;
  const started = performance.now();
  const loading = load(() => running);
  // Held until awaited below, so that a load failing first is not an unhandled rejection meanwhile.
  loading.catch(() => undefined);
  let figures: Figures;
  try {
    figures = await setups();
  } catch (error) {
    running = false;
    await loading.catch(() => undefined);
    throw error;
  }
  running = false;
  const loaded = await loading;
  return { figures, loaded, elapsedMs: performance.now() - started };
}
