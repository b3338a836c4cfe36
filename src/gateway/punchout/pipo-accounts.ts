/**
 * The print-service accounts behind punch-out users, and their PIPO session tokens.
 *
 * - `mapped` buyers get one permanent account per buyer user. Its username and password are derived from
 *   the signing key, the buyer and the user key, so the account can be found again even if the mapping
 *   row were lost; the mapping keeps them too (password encrypted) for logging in when a PO arrives.
 * - `temporary` buyers get a fresh `createtemp` user per punch-out; its generated password is kept
 *   encrypted for the same reason.
 *
 * A fresh login is expensive relative to a punch-in, so a token obtained less than
 * `pipoTokenReuseSeconds` ago is reused (the service refreshes its expiry on every call anyway). A token
 * the service no longer accepts (403) is replaced by logging in again, transparently.
 */
import { BoundedCache } from '../../kernel/bounded-cache.ts';
import { constantTimeEqual } from '../../kernel/constant-time.ts';
import type { PrintApi } from '../../print-api/index.ts';
import { PrintApiError } from '../../print-api/index.ts';
import type { Clock, Store } from '../../store/port.ts';
import type { PipoToken, PunchoutSession, UserMapping } from '../../store/types.ts';
import type { ResolvedBuyer, ResolvedStorefront } from '../deps.ts';
import { GatewayError, upstreamError } from '../http/errors.ts';
import type { BuyerUser } from './buyer-user.ts';
import type { TokenService } from './tokens.ts';

/**
 * The user mapping key of the account that places a buyer's print orders made of catalog products alone
 * (no design, so no designer to log in as): one permanent account per buyer, opened on first use. The
 * `catalog:` prefix keeps it apart from buyer users' keys, as `tmp:` does temporary users'.
 */
export const CATALOG_ORDERS_USER = 'catalog:orders';
const CATALOG_ORDERS_ACCOUNT: BuyerUser = {
  key: CATALOG_ORDERS_USER,
  firstName: 'Catalog',
  lastName: 'Orders',
};

interface PipoLogin {
  /** `userKey` of the mapping (the session's `pipoUserRef`). */
  userRef: string;
  token: string;
  obtainedAt: Date;
  /** How many calls to the print service this took (0 when a recent token was reused). */
  upstreamCalls: number;
}

export interface PipoAccounts {
  /** The account for a punch-in, created if needed, logged in. */
  open(
    buyer: ResolvedBuyer,
    storefront: ResolvedStorefront,
    user: BuyerUser,
    sessionId: string,
  ): Promise<PipoLogin>;
  /**
   * A token for an existing mapping, reusing a recent one; logs in again when `stale` is the current one.
   * The catalog-orders account (`CATALOG_ORDERS_USER`) is created the first time it is asked for.
   */
  tokenFor(
    buyer: ResolvedBuyer,
    storefront: ResolvedStorefront,
    userRef: string,
    stale?: string,
  ): Promise<PipoLogin>;
  /**
   * The login as a session record keeps it: the token encrypted (A256GCM under the signing key), so no
   * stored record holds a credential of the print service. `sessionToken` reads it back.
   */
  sealed(login: Pick<PipoLogin, 'token' | 'obtainedAt'>): Promise<PipoToken>;
  /**
   * A token the editor will accept for the session's user: the session's own while it is recent; an older
   * one once the service confirms it is still logged in (which also extends its life); else a new login.
   */
  sessionToken(
    buyer: ResolvedBuyer,
    storefront: ResolvedStorefront,
    session: Pick<PunchoutSession, 'pipoToken' | 'pipoUserRef'>,
  ): Promise<PipoLogin>;
  /**
   * Runs `call` with a token for the user and, if the service answers 403 (token expired mid-session),
   * logs in again and runs it once more.
   */
  withToken<T>(
    buyer: ResolvedBuyer,
    storefront: ResolvedStorefront,
    userRef: string,
    call: (token: string) => Promise<T>,
  ): Promise<T>;
}

interface Deps {
  store: Store;
  clock: Clock;
  tokens: TokenService;
  signingKey: string;
  printApiFor(storefront: ResolvedStorefront): PrintApi;
  reuseSeconds: number;
}

/** The HMAC key of the last signing key asked for, imported once (an import costs as much as the MAC). */
let macKey: { key: string; cryptoKey: Promise<CryptoKey> } | undefined;

async function hmacHex(key: string, message: string): Promise<string> {
  if (macKey?.key !== key) {
    const cryptoKey = crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(key),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    macKey = { key, cryptoKey };
    // A failed import is not kept: the next call tries again.
    cryptoKey.catch(() => {
      if (macKey?.cryptoKey === cryptoKey) macKey = undefined;
    });
  }
  const mac = await crypto.subtle.sign('HMAC', await macKey.cryptoKey, new TextEncoder().encode(message));
  return Array.from(new Uint8Array(mac), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * The username and password of a mapped user's account, derived from the signing key, so the account can
 * be opened again even if its mapping row were lost.
 */
async function derivedCredentials(
  signingKey: string,
  buyerId: string,
  userRef: string,
): Promise<{ username: string; password: string }> {
  const secret = await hmacHex(signingKey, `pipo-account\u0000${buyerId}\u0000${userRef}`);
  return { username: `pg-${buyerId}-${secret.slice(0, 12)}`, password: `Pg!${secret.slice(12, 44)}` };
}

/**
 * Creates a mapped user's print-service account; hands back the e-mail it was created with and how many
 * calls that took. An account that already exists (a lost mapping) is fine: the derived password opens it.
 */
async function createMappedAccount(
  api: PrintApi['pipo'],
  storefront: ResolvedStorefront,
  credentials: { username: string; password: string },
  user: BuyerUser,
): Promise<{ email: string; calls: number }> {
  const ownAddress = `${credentials.username}@punchout.invalid`;
  let email = user.email ?? ownAddress;
  for (let calls = 1; ; calls++) {
    try {
      await api.createUser({
        storefront_id: storefront.storefrontId,
        ...credentials,
        email,
        first_name: user.firstName,
        last_name: user.lastName,
      });
      return { email, calls };
    } catch (error) {
      const message = error instanceof PrintApiError ? error.serviceMessage : undefined;
      // The person may already have a storefront account under that e-mail: use an address of our own.
      if (message === 'duplicate email' && email !== ownAddress) {
        email = ownAddress;
        continue;
      }
      if (message === 'duplicate user name') return { email, calls };
      throw upstreamError(error, 'create the punch-out user');
    }
  }
}

/**
 * Logs the mapped user in with its stored (encrypted) password. A password sealed under a previous signing
 * key is sealed again with the current one right after the login worked: one write per user, once, and
 * the old key stops being needed for that user at their first punch-out after the rotation.
 */
async function logIn(deps: Deps, storefront: ResolvedStorefront, mapping: UserMapping): Promise<string> {
  const { plaintext: password, underPreviousKey } = await deps.tokens.unseal(mapping.passwordEnc);
  let token: string;
  try {
    token = await deps.printApiFor(storefront).pipo.login({
      username: mapping.username,
      password,
      storefront_id: storefront.storefrontId,
    });
  } catch (error) {
    throw upstreamError(error, 'log the punch-out user in');
  }
  if (underPreviousKey) {
    const current = await deps.store.users.get(mapping.buyerId, mapping.userKey);
    // Only the record that was read: a mapping replaced meanwhile (a re-created account) keeps its own.
    if (current !== undefined && constantTimeEqual(current.passwordEnc, mapping.passwordEnc)) {
      await deps.store.users.put({ ...current, passwordEnc: await deps.tokens.encrypt(password) });
    }
  }
  return token;
}

/** A fresh `createtemp` user for one punch-out, mapped under `userRef` with its password kept encrypted. */
async function createTemporaryAccount(
  deps: Deps,
  buyer: ResolvedBuyer,
  storefront: ResolvedStorefront,
  userRef: string,
): Promise<UserMapping> {
  let temp: Awaited<ReturnType<PrintApi['pipo']['createTempUser']>>;
  try {
    temp = await deps.printApiFor(storefront).pipo.createTempUser(storefront.storefrontId);
  } catch (error) {
    throw upstreamError(error, 'create a temporary user');
  }
  if (temp.password === undefined) {
    // Without the generated password the user could not be logged in again when the PO arrives.
    throw new GatewayError(
      'upstream_rejected',
      'The print service created a temporary user without credentials.',
    );
  }
  return deps.store.users.put({
    buyerId: buyer.id,
    userKey: userRef,
    storefrontId: storefront.id,
    pipoUserId: temp.id,
    username: temp.username,
    email: temp.email,
    passwordEnc: await deps.tokens.encrypt(temp.password),
    isTemp: true,
  });
}

/**
 * A mapped user's account created at the print service and logged in, its mapping stored: the token and
 * how many calls that took.
 */
async function createMappedUser(
  deps: Deps,
  buyer: ResolvedBuyer,
  storefront: ResolvedStorefront,
  user: BuyerUser,
): Promise<{ token: string; calls: number }> {
  const userRef = user.key;
  const credentials = await derivedCredentials(deps.signingKey, buyer.id, userRef);
  const api = deps.printApiFor(storefront).pipo;
  const created = await createMappedAccount(api, storefront, credentials, user);
  let calls = created.calls;
  const passwordEnc = await deps.tokens.encrypt(credentials.password);
  let token: string;
  try {
    token = await api.login({
      username: credentials.username,
      password: credentials.password,
      storefront_id: storefront.storefrontId,
    });
  } catch (error) {
    throw upstreamError(error, 'log the punch-out user in');
  }
  calls++;
  // The create answer carries no id (print API v2: "200"), so the user is read as itself. The mapping
  // is written once, with the id: the derived credentials find the account again should anything fail
  // before (a second create answers "duplicate user name", which is taken as the account existing).
  let pipoUserId: number;
  try {
    pipoUserId = (await api.getUser(token)).id;
    calls++;
  } catch (error) {
    throw upstreamError(error, 'read the punch-out user');
  }
  await deps.store.users.put({
    buyerId: buyer.id,
    userKey: userRef,
    storefrontId: storefront.id,
    pipoUserId,
    username: credentials.username,
    email: created.email,
    passwordEnc,
    isTemp: false,
  });
  return { token, calls };
}

function isUnauthorized(error: unknown): boolean {
  return error instanceof PrintApiError && error.code === 'unauthorized';
}

/**
 * A session's stored token in clear, or undefined when it cannot be read (a record from before tokens were
 * sealed, or sealed under a key in neither signing-key list): the caller then logs in again, as for an
 * expired one. One sealed under a previous key is read but not sealed again here: the session stores a new
 * sealed token whenever it renews one, and ends within sessionTtlSeconds anyway, so a write per page view
 * would buy nothing.
 */
async function unsealed(tokens: TokenService, stored: PipoToken | undefined): Promise<PipoToken | undefined> {
  if (stored === undefined) return undefined;
  try {
    return { token: await tokens.decrypt(stored.token), obtainedAt: stored.obtainedAt };
  } catch {
    return undefined;
  }
}

export function createPipoAccounts(deps: Deps): PipoAccounts {
  const recent = new BoundedCache<string, { token: string; obtainedAt: Date }>({ max: 50_000 });
  /** Tokens of `recent` as `sealed` last sealed them, by token (one per user while it is reused). */
  const sealedTokens = new BoundedCache<string, { obtainedAt: number; sealed: string }>({ max: 10_000 });
  const cacheKey = (buyerId: string, userRef: string) => `${buyerId}\u0000${userRef}`;

  const login = (storefront: ResolvedStorefront, mapping: UserMapping) => logIn(deps, storefront, mapping);

  function remember(buyerId: string, userRef: string, token: string, upstreamCalls: number): PipoLogin {
    const obtainedAt = deps.clock.now();
    recent.set(cacheKey(buyerId, userRef), { token, obtainedAt });
    return { userRef, token, obtainedAt, upstreamCalls };
  }

  function reusable(
    buyerId: string,
    userRef: string,
    stale?: string,
  ): { token: string; obtainedAt: Date } | undefined {
    const hit = recent.get(cacheKey(buyerId, userRef));
    return hit !== undefined && hit.token !== stale && isRecent(hit.obtainedAt) ? hit : undefined;
  }

  /** A token obtained this recently is used without asking the service (which extends it on every call). */
  function isRecent(obtainedAt: Date): boolean {
    return deps.clock.now().getTime() - obtainedAt.getTime() < deps.reuseSeconds * 1000;
  }

  async function openMapped(
    buyer: ResolvedBuyer,
    storefront: ResolvedStorefront,
    user: BuyerUser,
  ): Promise<PipoLogin> {
    const userRef = user.key;
    const hit = reusable(buyer.id, userRef);
    if (hit) return { userRef, ...hit, upstreamCalls: 0 };

    const existing = await deps.store.users.get(buyer.id, userRef);
    if (existing) {
      try {
        return remember(buyer.id, userRef, await login(storefront, existing), 1);
      } catch (error) {
        // The print service no longer knows the account (deleted by an admin, or a sandbox started
        // afresh): it is created again below with the same derived credentials. Designs it held are gone.
        if (!(error instanceof GatewayError && isUnauthorized(error.cause))) throw error;
      }
    }

    const { token, calls } = await createMappedUser(deps, buyer, storefront, user);
    return remember(buyer.id, userRef, token, calls);
  }

  async function openTemporary(
    buyer: ResolvedBuyer,
    storefront: ResolvedStorefront,
    sessionId: string,
  ): Promise<PipoLogin> {
    const mapping = await createTemporaryAccount(deps, buyer, storefront, `tmp:${sessionId}`);
    return remember(buyer.id, mapping.userKey, await login(storefront, mapping), 2);
  }

  const accounts: PipoAccounts = {
    open(buyer, storefront, user, sessionId) {
      if (user.anonymous && buyer.anonymousUsers === 'refuse') {
        throw new GatewayError(
          'bad_request',
          'This punch-out names no user (no UniqueName, UserEmail or Contact); this buyer only accepts punch-outs that name one.',
        );
      }
      return buyer.userMode === 'temporary' || user.anonymous
        ? openTemporary(buyer, storefront, sessionId)
        : openMapped(buyer, storefront, user);
    },

    async tokenFor(buyer, storefront, userRef, stale) {
      const hit = reusable(buyer.id, userRef, stale);
      if (hit) return { userRef, ...hit, upstreamCalls: 0 };
      const mapping = await deps.store.users.get(buyer.id, userRef);
      if (mapping === undefined && userRef === CATALOG_ORDERS_USER) {
        return openMapped(buyer, storefront, CATALOG_ORDERS_ACCOUNT);
      }
      if (mapping === undefined) {
        throw new GatewayError(
          'upstream_rejected',
          `No print-service account is recorded for user ${userRef}.`,
        );
      }
      return remember(buyer.id, userRef, await login(storefront, mapping), 1);
    },

    async sealed(login) {
      // A reused token is sealed once, not at every punch-in that reuses it (an A256GCM seal ≈ 20 µs):
      // the sealed text is the same token under the same key, so sessions sharing the token may share it.
      const obtainedAt = login.obtainedAt.getTime();
      const known = sealedTokens.get(login.token);
      if (known !== undefined && known.obtainedAt === obtainedAt) {
        return { token: known.sealed, obtainedAt: login.obtainedAt };
      }
      const sealed = await deps.tokens.encrypt(login.token);
      sealedTokens.set(login.token, { obtainedAt, sealed });
      return { token: sealed, obtainedAt: login.obtainedAt };
    },

    async sessionToken(buyer, storefront, session) {
      const current = await unsealed(deps.tokens, session.pipoToken);
      if (current && isRecent(current.obtainedAt))
        return { userRef: session.pipoUserRef, ...current, upstreamCalls: 0 };
      // The service's own error on purpose: the caller says what it was doing.
      if (current && (await deps.printApiFor(storefront).pipo.isLoggedIn(current.token))) {
        return {
          userRef: session.pipoUserRef,
          token: current.token,
          obtainedAt: deps.clock.now(),
          upstreamCalls: 1,
        };
      }
      return accounts.tokenFor(buyer, storefront, session.pipoUserRef, current?.token);
    },

    async withToken(buyer, storefront, userRef, call) {
      const first = await accounts.tokenFor(buyer, storefront, userRef);
      try {
        return await call(first.token);
      } catch (error) {
        if (!(error instanceof PrintApiError) || error.code !== 'forbidden') throw error;
        const again = await accounts.tokenFor(buyer, storefront, userRef, first.token);
        return call(again.token);
      }
    },
  };
  return accounts;
}
