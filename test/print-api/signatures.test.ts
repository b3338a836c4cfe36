/**
 * Type-level tests of the client's method signatures: what goes in and what comes out is what the
 * contracts in schemas/print-api.ts say. These fail at typecheck (`tsc`), and vitest runs them as no-ops.
 */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  Customer,
  EventName,
  HookEntry,
  Order,
  PipoApi,
  PipoProject,
  PipoUser,
  PrintApi,
  PrintApiError,
  PrintApiErrorCode,
  PrintApiFile,
  Rendering,
  ReportRecord,
  SalesReportRecord,
  StatusBody,
} from '../../src/index.ts';
import { createPrintApi } from '../../src/index.ts';

describe('PrintApi signatures', () => {
  it('createPrintApi takes the options and returns a PrintApi', () => {
    expectTypeOf(createPrintApi).parameter(0).toHaveProperty('baseUrl').toEqualTypeOf<string>();
    expectTypeOf(createPrintApi).returns.toEqualTypeOf<PrintApi>();
  });

  it('reads return the contract types', () => {
    expectTypeOf<PrintApi['ping']>().toEqualTypeOf<() => Promise<void>>();
    expectTypeOf<PrintApi['getOrder']>().toEqualTypeOf<(orderId: number) => Promise<Order>>();
    expectTypeOf<PrintApi['getCustomer']>().toEqualTypeOf<(customerId: number) => Promise<Customer>>();
    expectTypeOf<PrintApi['listRenderings']>().toEqualTypeOf<(productId: number) => Promise<Rendering[]>>();
    expectTypeOf<PrintApi['listHooks']>().toEqualTypeOf<() => Promise<HookEntry[]>>();
  });

  it('files come back as PrintApiFile with a byte stream', () => {
    expectTypeOf<PrintApi['downloadOrder']>().returns.resolves.toEqualTypeOf<PrintApiFile>();
    expectTypeOf<PrintApi['downloadItem']>().parameters.toEqualTypeOf<[orderId: number, itemId: number]>();
    expectTypeOf<PrintApi['downloadItemAssets']>().returns.resolves.toEqualTypeOf<PrintApiFile>();
    expectTypeOf<PrintApi['getRendering']>().returns.resolves.toEqualTypeOf<PrintApiFile>();
    expectTypeOf<PrintApi['waitForFiles']>().returns.resolves.toEqualTypeOf<PrintApiFile>();
    expectTypeOf<PrintApiFile['body']>().toEqualTypeOf<ReadableStream<Uint8Array>>();
    expectTypeOf<PrintApiFile['contentLength']>().toEqualTypeOf<number | undefined>();
  });

  it('writes take the contract bodies', () => {
    expectTypeOf<PrintApi['setStatus']>().parameter(1).toEqualTypeOf<StatusBody>();
    expectTypeOf<PrintApi['markShipped']>()
      .parameter(1)
      .toEqualTypeOf<
        { readonly trackingNumber?: string | undefined; readonly itemId?: number | undefined } | undefined
      >();
    expectTypeOf<PrintApi['createHook']>().parameters.toEqualTypeOf<[targetUrl: string, event: EventName]>();
    expectTypeOf<PrintApi['createHook']>().returns.resolves.toEqualTypeOf<HookEntry>();
    expectTypeOf<PrintApi['deleteHook']>().returns.resolves.toBeVoid();
  });

  it("report('sales') is typed SalesReportRecord[], other types ReportRecord[]", () => {
    const api = {} as PrintApi;
    expectTypeOf(api.report<'sales'>).returns.resolves.toEqualTypeOf<SalesReportRecord[]>();
    expectTypeOf(api.report<'tax'>).returns.resolves.toEqualTypeOf<ReportRecord[]>();
    // viewBy is accepted for the order report only.
    expectTypeOf(api.report<'order'>)
      .parameter(1)
      .exclude<undefined>()
      .toHaveProperty('viewBy');
    expectTypeOf(api.report<'sales'>)
      .parameter(1)
      .exclude<undefined>()
      .not.toHaveProperty('viewBy');
    // Only type-checked, never called.
    const misuse = () => {
      // @ts-expect-error: not a report type
      void api.report('bogus');
      // @ts-expect-error: viewBy belongs to the order report
      void api.report('sales', { viewBy: 'month' });
    };
    expectTypeOf(misuse).toBeFunction();
  });

  it('the PIPO group takes session tokens first and returns the contract types', () => {
    expectTypeOf<PrintApi['pipo']>().toEqualTypeOf<PipoApi>();
    expectTypeOf<PipoApi['login']>().returns.resolves.toEqualTypeOf<string>();
    expectTypeOf<PipoApi['login']>().parameter(0).toHaveProperty('storefront_id').toEqualTypeOf<number>();
    expectTypeOf<PipoApi['isLoggedIn']>().toEqualTypeOf<(sessionToken: string) => Promise<boolean>>();
    expectTypeOf<PipoApi['isTemp']>().toEqualTypeOf<(sessionToken: string) => Promise<boolean>>();
    expectTypeOf<PipoApi['getUser']>().toEqualTypeOf<(sessionToken: string) => Promise<PipoUser>>();
    expectTypeOf<PipoApi['createTempUser']>().parameters.toEqualTypeOf<[storefrontId: number]>();
    expectTypeOf<PipoApi['createTempUser']>().returns.resolves.toExtend<PipoUser>();
    expectTypeOf<PipoApi['createTempUser']>().returns.resolves.toHaveProperty('password');
    expectTypeOf<PipoApi['listProjects']>().returns.resolves.toEqualTypeOf<PipoProject[]>();
    expectTypeOf<PipoApi['getProject']>().parameters.toEqualTypeOf<
      [sessionToken: string, projectId: number]
    >();
    expectTypeOf<PipoApi['createOrder']>().parameters.toEqualTypeOf<
      [sessionToken: string, productIds: readonly number[], externalId?: string]
    >();
    expectTypeOf<PipoApi['createOrder']>().returns.resolves.toEqualTypeOf<number>();
    expectTypeOf<PipoApi['processOrder']>().returns.resolves.toBeVoid();
    expectTypeOf<PipoApi['createUser']>().returns.resolves.toBeVoid();
  });

  it('PrintApiError carries a closed code union', () => {
    expectTypeOf<PrintApiError['code']>().toEqualTypeOf<PrintApiErrorCode>();
    expectTypeOf<PrintApiErrorCode>().toEqualTypeOf<
      | 'unauthorized'
      | 'forbidden'
      | 'not_found'
      | 'conflict'
      | 'files_not_ready'
      | 'bad_request'
      | 'too_large'
      | 'timeout'
      | 'unavailable'
      | 'invalid_response'
    >();
    expectTypeOf<PrintApiError['status']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<PrintApiError['retryAfterSeconds']>().toEqualTypeOf<number | undefined>();
  });
});
