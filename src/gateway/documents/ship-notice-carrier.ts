/**
 * The carrier a ShipNoticeRequest names for a shipment. The print service records a carrier as free text
 * (`provider`, `service`); buyers' systems key carriers on a SCAC and a recognisable name, so a storefront's
 * `carriers` map translates one into the other. Without a mapping the provider goes out as written.
 */
import { type CarrierMapping, carrierKey } from '../../../schemas/config.ts';
import type { ShipNoticeCarrier } from '../../cxml/index.ts';

/** The carrier named for a tracked shipment whose carrier the print service does not record. */
const UNNAMED_CARRIER = 'Carrier not specified';

/** What the print order says about a shipment's carrier, blanks already read as absent. */
export interface RecordedCarrier {
  readonly provider?: string;
  readonly service?: string;
  /** Whether the shipment has tracking numbers: cXML carries them only with a carrier. */
  readonly tracked: boolean;
}

/**
 * The `carriers` entry for "provider/service" if there is one, else for "provider"; else the provider as
 * written; else, for a tracked shipment, {@link UNNAMED_CARRIER} rather than dropping its tracking numbers.
 */
export function shipNoticeCarrier(
  carriers: Readonly<Record<string, CarrierMapping>> | undefined,
  recorded: RecordedCarrier,
): ShipNoticeCarrier | undefined {
  const { provider, service, tracked } = recorded;
  if (provider === undefined) return tracked ? { name: UNNAMED_CARRIER } : undefined;
  const mapped = new Map(Object.entries(carriers ?? {}).map(([key, value]) => [carrierKey(key), value]));
  const mapping =
    (service === undefined ? undefined : mapped.get(carrierKey(`${provider}/${service}`))) ??
    mapped.get(carrierKey(provider));
  if (mapping === undefined) return { name: provider };
  return mapping.scac === undefined ? { name: mapping.name } : { name: mapping.name, scac: mapping.scac };
}
