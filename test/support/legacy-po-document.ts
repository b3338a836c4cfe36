/**
 * A PO document as punchgate stored it before the codec's values were plain data: a float copy next to
 * each amount (`amount`, null where JSON could not write it) and quantity (`quantityNumber`), extrinsics
 * as `{ list }` and a timestamp's instant as `date`. Stores written then still hold documents like these.
 */
import type { PoDocument, StoredRequest } from '../../src/gateway/orders/po-record.ts';
import { type JsonObject, toJson } from '../../src/store/types.ts';

type Timestamp = StoredRequest['timestamp'];

function legacyTimestamp({ instant, ...rest }: Timestamp): object {
  return { ...rest, ...(instant !== undefined && { date: instant }) };
}

function legacyMoney<T extends { value: string }>(money: T): T & { amount: number | null } {
  const amount = Number(money.value);
  return { ...money, amount: Number.isFinite(amount) ? amount : null };
}

export function legacyPoDocument(document: PoDocument): JsonObject {
  const { request } = document;
  return toJson({
    ...document,
    request: {
      ...request,
      timestamp: legacyTimestamp(request.timestamp),
      ...(request.orderDate !== undefined && { orderDate: legacyTimestamp(request.orderDate) }),
      ...(request.requestedDeliveryDate !== undefined && {
        requestedDeliveryDate: legacyTimestamp(request.requestedDeliveryDate),
      }),
      total: legacyMoney(request.total),
      ...(request.shipping !== undefined && { shipping: legacyMoney(request.shipping) }),
      ...(request.tax !== undefined && { tax: legacyMoney(request.tax) }),
      extrinsics: { list: request.extrinsics },
      items: request.items.map((item) => ({
        ...item,
        quantityNumber: Number(item.quantity),
        unitPrice: legacyMoney(item.unitPrice),
        ...(item.requestedDeliveryDate !== undefined && {
          requestedDeliveryDate: legacyTimestamp(item.requestedDeliveryDate),
        }),
        extrinsics: { list: item.extrinsics },
      })),
    },
  });
}
