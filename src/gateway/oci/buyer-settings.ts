/**
 * An OCI buyer's configuration as the OCI codec wants it: the punch-in check (login, HOOK_URL policy,
 * charset) and the NEW_ITEM-* options (units, vendor number, customer fields, OCI version). Checked once
 * when the routes are mounted, so a customer field too long for its SAP field fails at start-up rather than
 * on every transfer.
 */

import { type ConfigProblem, crossReferenceProblems } from '../../../schemas/config.ts';
import {
  buildOciItems,
  type OciBuyerSettings,
  type OciCharset,
  OciError,
  type OciItemsOptions,
} from '../../oci/index.ts';
import type { ResolvedConfig, ResolvedOciBuyer } from '../deps.ts';

/** What `acceptOciPunchIn` checks a punch-in against. */
export function punchInSettings(buyer: ResolvedOciBuyer): OciBuyerSettings {
  return {
    username: buyer.username,
    password: buyer.password,
    previousPasswords: buyer.previousPasswords,
    hookUrlHosts: buyer.hookUrlHosts,
    allowSapEvent: buyer.allowSapEvent,
    charset: buyer.charset,
    loginFields: buyer.loginFields,
  };
}

/** The options of `buildOciItems` for this buyer, in the charset its punch-in was read in. */
export function itemOptions(buyer: ResolvedOciBuyer, charset: OciCharset): OciItemsOptions {
  return {
    charset,
    unitMap: buyer.unitMap,
    custFields: buyer.custFields,
    ociVersion: buyer.ociVersion,
    ...(buyer.vendorNumber !== undefined && { vendor: buyer.vendorNumber }),
  };
}

/**
 * The OCI buyers whose configured NEW_ITEM-* values cannot be sent (a customer field longer than SAP's
 * CUST_FIELD length, a unit mapped to an empty code), by config path. Part of loading the config, so
 * `check-config` and every runtime refuse the same files.
 */
export function ociBuyerProblems(config: ResolvedConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  config.buyers.forEach((buyer, index) => {
    if (buyer.protocol !== 'oci') return;
    const units = Object.keys(buyer.unitMap);
    try {
      buildOciItems(
        (units.length > 0 ? units : ['EA']).map((uom, i) => ({
          lineRef: `probe-${i}`,
          sku: 'probe',
          description: 'probe',
          quantity: 1,
          unitPrice: '1',
          currency: 'EUR',
          uom,
          ...(buyer.manufacturerCode !== undefined && { manufacturerCode: buyer.manufacturerCode }),
        })),
        // A punch-in may ask for another charset than the configured one; ISO-8859-1 transliterates the most
        // (€ → EUR), so values that fit in it fit in every charset.
        itemOptions(buyer, 'iso-8859-1'),
      );
    } catch (error) {
      if (!(error instanceof OciError)) throw error;
      const field = error.param?.replace(/^NEW_ITEM-|\[\d+\]$/g, '') ?? 'a field';
      const problem = error.message.replace(/^Cart line \d+ \([^)]*\) (has )?/, '');
      problems.push({
        path: `buyers[${index}]`,
        message: `(${buyer.id}) its configuration cannot fill NEW_ITEM-${field}: ${problem}`,
      });
    }
  });
  return problems;
}

/**
 * Throws a TypeError listing the OCI configuration problems: for gateways built from a config that did not
 * go through `loadGatewayConfig` (tests, embedders), so they fail at mount rather than on every transfer.
 *
 * @example
 * checkOciBuyers(ctx.config); // at mount time
 */
export function checkOciBuyers(config: ResolvedConfig): void {
  const problems = [...crossReferenceProblems(config), ...ociBuyerProblems(config)];
  if (problems.length > 0) throw new TypeError(problems.map((p) => `${p.path}: ${p.message}`).join('; '));
}
