/**
 * The typed client of the print ordering service interface v2: one method per endpoint, answers checked
 * against the zod contracts of `schemas/print-api.ts`, every failure a PrintApiError with a stable code.
 *
 * Retries: GET reads (ping, order, downloads, customer, renderings, hooks, reports) are retried after a
 * network error, 5xx or 429, with jittered exponential backoff or the service's Retry-After. Calls that
 * create or change something (mark shipped, set status, hook create/delete, the PIPO writes) are sent
 * once: after a lost answer only the caller can know whether to send again.
 */
import * as z from 'zod';
import {
  Customer,
  type EventName,
  HookEntry,
  Order,
  PRINT_API_LIMITS,
  REPORT_TYPES,
  Rendering,
  ReportQuery,
  ReportRecord,
  type ReportType,
  SalesReportRecord,
  StatusBody,
} from '../../schemas/print-api.ts';
import { checkBody, checkPositiveInteger } from './call-arguments.ts';
import { createEditorUrls, type ThumbnailUrlOptions } from './editor-urls.ts';
import { isPrintApiError, PrintApiError } from './error.ts';
import { createPipoApi, type PipoApi } from './pipo.ts';
import { fileReader, jsonReader, type PrintApiFile, readNothing } from './read-answer.ts';
import { type CallSpec, createTransport, type PrintApiOptions, type Transport } from './transport.ts';

/** The query a report takes; viewBy only for the `order` report. */
export type ReportQueryFor<T extends ReportType> = T extends 'order'
  ? ReportQuery
  : Omit<ReportQuery, 'viewBy'>;

/** The record shape of a report: only the sales record is shown by the interface. */
export type ReportRecordFor<T extends ReportType> = T extends 'sales' ? SalesReportRecord : ReportRecord;

export interface MarkShippedOptions {
  readonly trackingNumber?: string | undefined;
  /** Ship only this item (and its shipment) instead of the whole order. */
  readonly itemId?: number | undefined;
}

export interface WaitForFilesOptions {
  /** Wait for one item's files instead of the whole order's. */
  readonly itemId?: number | undefined;
  /** Give up after this long (by the client's clock) with `files_not_ready`. */
  readonly maxWaitMs: number;
}

export interface PrintApi {
  /** E01. Resolves when the credentials work. */
  ping(): Promise<void>;
  /** E02. */
  getOrder(orderId: number): Promise<Order>;
  /** E03. The order's print-ready files as `order-{id}.zip`; `files_not_ready` while merging. */
  downloadOrder(orderId: number): Promise<PrintApiFile>;
  /** E04. One item's print-ready files as `item-{id}.zip`; `files_not_ready` while merging. */
  downloadItem(orderId: number, itemId: number): Promise<PrintApiFile>;
  /** E05. The item's source assets as `item-assets-{id}.zip`. */
  downloadItemAssets(orderId: number, itemId: number): Promise<PrintApiFile>;
  /**
   * Polls the order's (or item's) download until the merge has finished, sleeping as Retry-After says, and
   * returns the file. There is no HEAD in the interface, so the answer that proves readiness is the file.
   */
  waitForFiles(orderId: number, options: WaitForFilesOptions): Promise<PrintApiFile>;
  /** E06 / E07. Marks the order (or one item) shipped, optionally with a tracking number. */
  markShipped(orderId: number, options?: MarkShippedOptions): Promise<void>;
  /** E08 / E09. Sets the order's (or one item's) status; `order_status` is matched case-insensitively. */
  setStatus(
    orderId: number,
    body: StatusBody,
    options?: { readonly itemId?: number | undefined },
  ): Promise<void>;
  /** E10. */
  getCustomer(customerId: number): Promise<Customer>;
  /** E11. `not_found` for products without photo-merge renderings. */
  listRenderings(productId: number): Promise<Rendering[]>;
  /** E12. A PNG. */
  getRendering(productId: number, renderingId: number): Promise<PrintApiFile>;
  /**
   * R15. A PNG thumbnail of a product or saved design from the editor host's `productthumb.ashx`
   * (`editorUrl` is the storefront's {editor_url}); the host takes no credential for it, so none is sent.
   */
  downloadThumbnail(editorUrl: string, options: ThumbnailUrlOptions): Promise<PrintApiFile>;
  /** E28. Active hooks of this API token. */
  listHooks(): Promise<HookEntry[]>;
  /** E29. The event is not checked here, so a name the service added later can still be used. */
  createHook(targetUrl: string, event: EventName): Promise<HookEntry>;
  /** E30. */
  deleteHook(hookId: number): Promise<void>;
  /** E31. `report('sales', …)` is typed `SalesReportRecord[]`; other types' records are not shown. */
  report<T extends ReportType>(type: T, query?: ReportQueryFor<T>): Promise<ReportRecordFor<T>[]>;
  /** E13–E27. */
  readonly pipo: PipoApi;
}

const readOrder = jsonReader(Order);
const readCustomer = jsonReader(Customer);
const readRenderings = jsonReader(z.array(Rendering));
const readHook = jsonReader(HookEntry);
const readHooks = jsonReader(z.array(HookEntry));
const readSalesReport = jsonReader(z.array(SalesReportRecord));
const readReport = jsonReader(z.array(ReportRecord));
const ShippedOptions = z.object({ trackingNumber: z.string().optional(), itemId: z.number().optional() });
const HookTarget = z.url({ protocol: /^https?$/ });

function orderPath(orderId: number): string {
  return `/api/v2/order/${checkPositiveInteger('orderId', orderId)}`;
}

/**
 * The print-ready files of an order or one item, once or polled until the merge is done: the methods that
 * share the download call and its reader with the documented file name.
 */
function createDownloads({ call, now, sleep }: Transport) {
  /** The print-ready files of an order or one item: the call, and its reader with the documented name. */
  function downloadRequest(orderId: number, itemId: number | undefined) {
    const base = `${orderPath(orderId)}/download`;
    const spec: CallSpec = {
      method: 'GET',
      path: itemId === undefined ? base : `${base}/${checkPositiveInteger('itemId', itemId)}`,
      retry: true,
      file: true,
      mergeGated: true,
    };
    return { spec, read: fileReader(itemId === undefined ? `order-${orderId}.zip` : `item-${itemId}.zip`) };
  }

  function download(orderId: number, itemId: number | undefined): Promise<PrintApiFile> {
    const { spec, read } = downloadRequest(orderId, itemId);
    return call(spec, read);
  }

  // Not async itself, so that misuse throws at call time like every other method.
  function waitForFiles(orderId: number, waitOptions: WaitForFilesOptions): Promise<PrintApiFile> {
    const { itemId, maxWaitMs } = waitOptions;
    if (!(Number.isFinite(maxWaitMs) && maxWaitMs >= 0)) {
      throw new TypeError('waitForFiles: maxWaitMs must be a non-negative number of milliseconds');
    }
    return pollDownload(orderId, itemId, maxWaitMs);
  }

  async function pollDownload(
    orderId: number,
    itemId: number | undefined,
    maxWaitMs: number,
  ): Promise<PrintApiFile> {
    const { spec, read } = downloadRequest(orderId, itemId);
    const defaultWaitSeconds =
      itemId === undefined
        ? PRINT_API_LIMITS.orderDownloadRetryAfterSeconds
        : PRINT_API_LIMITS.itemDownloadRetryAfterSeconds;
    const start = now();
    for (let polls = 1; ; polls++) {
      try {
        return await call(spec, read);
      } catch (error) {
        if (!isPrintApiError(error) || error.code !== 'files_not_ready') throw error;
        const remaining = start + maxWaitMs - now();
        if (remaining <= 0) {
          const subject = itemId === undefined ? `order ${orderId}` : `item ${itemId} of order ${orderId}`;
          throw new PrintApiError(
            'files_not_ready',
            `waitForFiles: files of ${subject} still not ready after ${polls} polls over ${Math.round(maxWaitMs / 1000)} s`,
            {
              status: error.status,
              serviceMessage: error.serviceMessage,
              retryAfterSeconds: error.retryAfterSeconds,
              method: spec.method,
              path: spec.path,
              cause: error,
            },
          );
        }
        // At least a second between polls, even if the service says "0".
        const waitMs = Math.max(1, error.retryAfterSeconds ?? defaultWaitSeconds) * 1000;
        // Wait as asked, but try once more at the end of the budget rather than give up early.
        await sleep(Math.min(waitMs, remaining));
      }
    }
  }

  return { download, waitForFiles };
}

/** `GET /report/{type}` with its query checked, read as that report's records. */
function requestReport<T extends ReportType>(
  call: Transport['call'],
  type: T,
  query?: ReportQueryFor<T>,
): Promise<ReportRecordFor<T>[]> {
  if (!(REPORT_TYPES as readonly string[]).includes(type)) {
    throw new TypeError(`report: type must be one of ${REPORT_TYPES.join(', ')}`);
  }
  const checked = checkBody('report query', ReportQuery, query ?? {});
  if (checked.viewBy !== undefined && type !== 'order') {
    throw new TypeError('report: viewBy applies only to the order report');
  }
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(checked)) {
    if (value !== undefined) params.set(name, String(value));
  }
  const search = params.toString();
  const spec: CallSpec = {
    method: 'GET',
    path: `/api/v2/report/${type}`,
    ...(search === '' ? {} : { query: `?${search}` }),
    retry: true,
  };
  // The conditional return type cannot be narrowed from `type` by the compiler; the reader matches it.
  return call(spec, type === 'sales' ? readSalesReport : readReport) as Promise<ReportRecordFor<T>[]>;
}

/**
 * Creates a client. Options are checked here (misuse throws TypeError); the Authorization header is
 * computed once.
 *
 * @example
 * import { createPrintApi } from 'punchgate';
 * import { createNodeFetch } from './print-api/node-fetch.ts'; // Node only
 *
 * const api = createPrintApi({
 *   baseUrl: 'https://print.example.com',
 *   token: process.env.PRINT_API_TOKEN!,
 *   key: process.env.PRINT_API_KEY!,
 *   fetch: createNodeFetch(),
 * });
 * await api.ping();
 * const order = await api.getOrder(1042);
 */
export function createPrintApi(options: PrintApiOptions): PrintApi {
  const transport = createTransport(options);
  const { call } = transport;
  const { download, waitForFiles } = createDownloads(transport);
  const pingSpec: CallSpec = { method: 'GET', path: '/api/v2/ping', retry: true };

  return {
    ping: () => call(pingSpec, readNothing),

    getOrder: (orderId) => call({ method: 'GET', path: orderPath(orderId), retry: true }, readOrder),

    downloadOrder: (orderId) => download(orderId, undefined),

    downloadItem: (orderId, itemId) => download(orderId, checkPositiveInteger('itemId', itemId)),

    downloadItemAssets(orderId, itemId) {
      const path = `${orderPath(orderId)}/assets/${checkPositiveInteger('itemId', itemId)}`;
      return call({ method: 'GET', path, retry: true, file: true }, fileReader(`item-assets-${itemId}.zip`));
    },

    waitForFiles,

    markShipped(orderId, shipOptions = {}) {
      const { trackingNumber, itemId } = checkBody('markShipped options', ShippedOptions, shipOptions);
      let path = `${orderPath(orderId)}/shipped`;
      if (itemId !== undefined) path += `/${checkPositiveInteger('itemId', itemId)}`;
      const spec: CallSpec =
        trackingNumber === undefined
          ? { method: 'PATCH', path, retry: false }
          : {
              method: 'PATCH',
              path,
              body: JSON.stringify({ tracking_number: trackingNumber }),
              retry: false,
            };
      return call(spec, readNothing);
    },

    setStatus(orderId, body, statusOptions = {}) {
      const checked = checkBody('setStatus body', StatusBody, body);
      let path = `${orderPath(orderId)}/status`;
      if (statusOptions.itemId !== undefined)
        path += `/${checkPositiveInteger('itemId', statusOptions.itemId)}`;
      return call({ method: 'PATCH', path, body: JSON.stringify(checked), retry: false }, readNothing);
    },

    getCustomer: (customerId) =>
      call(
        {
          method: 'GET',
          path: `/api/v2/customer/${checkPositiveInteger('customerId', customerId)}`,
          retry: true,
        },
        readCustomer,
      ),

    listRenderings: (productId) =>
      call(
        {
          method: 'GET',
          path: `/api/v2/product/${checkPositiveInteger('productId', productId)}/renderings`,
          retry: true,
        },
        readRenderings,
      ),

    getRendering(productId, renderingId) {
      const path = `/api/v2/product/${checkPositiveInteger('productId', productId)}/renderings/${checkPositiveInteger('renderingId', renderingId)}`;
      return call(
        { method: 'GET', path, retry: true, file: true },
        fileReader(`rendering-${renderingId}.png`),
      );
    },

    downloadThumbnail(editorUrl, thumbnail) {
      const url = createEditorUrls(editorUrl).thumbnailUrl(thumbnail);
      return call(
        { method: 'GET', path: '/productthumb.ashx', editorUrl: url, retry: true, file: true },
        fileReader(`thumbnail-${thumbnail.productId}.png`),
      );
    },

    listHooks: () => call({ method: 'GET', path: '/api/v2/hooks', retry: true }, readHooks),

    createHook(targetUrl, event) {
      if (!HookTarget.safeParse(targetUrl).success) {
        throw new TypeError('createHook: targetUrl must be an absolute http(s) URL');
      }
      if (typeof event !== 'string' || (event as string) === '')
        throw new TypeError('createHook: event must be a string');
      const body = JSON.stringify({ target_url: targetUrl, event });
      return call({ method: 'POST', path: '/api/v2/hooks', body, retry: false }, readHook);
    },

    deleteHook: (hookId) =>
      call(
        { method: 'DELETE', path: `/api/v2/hooks/${checkPositiveInteger('hookId', hookId)}`, retry: false },
        readNothing,
      ),

    report: (type, query) => requestReport(call, type, query),

    pipo: createPipoApi(transport),
  };
}
