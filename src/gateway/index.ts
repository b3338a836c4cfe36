/**
 * The gateway between procurement systems and the print service; what each folder holds, and what adding
 * a buyer protocol takes, is in `README.md` beside this file.
 *
 * @example
 * const gateway = await createGateway({ config, store, clock: systemClock, printApiFor });
 * serve({ fetch: gateway.app.fetch, port: 8080 });
 */

export { createGateway, type Gateway } from './app/gateway.ts';
