/**
 * The PIPO (punch-in/punch-out) group of the client: end-user sessions, users, saved projects and orders
 * made from them. Calls marked "Basic + Token" in the interface carry the session token as X-PN-TOKEN.
 *
 * Retry choices: reads (loggedin, info, istemp, projects) are retried like every safe call; so is login,
 * which creates nothing that matters if sent twice (a spare session idles out) and is never retried on a
 * 401, so a wrong password is not tried again. Logout is not retried: a repeat after a lost answer would
 * meet the token it had already invalidated. Everything that creates or changes users, projects or
 * orders is sent once.
 */
import * as z from 'zod';
import {
  PipoConvertUserBody,
  PipoCreateUserBody,
  PipoLoginBody,
  PipoProject,
  PipoSessionToken,
  PipoTransferUserBody,
  PipoUpdateUserBody,
  PipoUser,
} from '../../schemas/print-api.ts';
import { checkBody, checkPositiveInteger, checkSessionToken } from './call-arguments.ts';
import { isPrintApiError } from './error.ts';
import { createEditorUrls } from './editor-urls.ts';
import { fileReader, jsonReader, type PrintApiFile, readNothing } from './read-answer.ts';
import type { HttpMethod, ReadAnswer, Transport } from './transport.ts';

/**
 * The createtemp answer: a PIPO User "with system-generated credentials". The interface does not name the
 * credential fields; the sandbox adds `password` (its username is the user's `username`), so the client
 * passes it on when present rather than depending on it.
 */
const PipoTempUserAnswer = PipoUser.extend({ password: z.string().optional() });
export type PipoTempUserAnswer = z.output<typeof PipoTempUserAnswer>;

export interface PipoApi {
  /** E13. The session token for X-PN-TOKEN. A wrong username or password is `unauthorized`. */
  login(credentials: PipoLoginBody): Promise<string>;
  /** E14. Invalidates the session token. */
  logout(sessionToken: string): Promise<void>;
  /** E15. Refreshes the token's expiry; false when the service refuses the token (403). */
  isLoggedIn(sessionToken: string): Promise<boolean>;
  /** E16. */
  getUser(sessionToken: string): Promise<PipoUser>;
  /** E17. Applies only to permanent users; new_password only with a valid, different current_password. */
  updateUser(sessionToken: string, body: PipoUpdateUserBody): Promise<void>;
  /** E18. A duplicate user name or e-mail is `conflict`. */
  createUser(body: PipoCreateUserBody): Promise<void>;
  /** E19. A temporary user with system-generated credentials. */
  createTempUser(storefrontId: number): Promise<PipoTempUserAnswer>;
  /** E20. Makes the session's temporary user permanent; duplicates are `conflict`. */
  convertUser(sessionToken: string, body: PipoConvertUserBody): Promise<void>;
  /** E21. Moves the temporary user's albums and projects to an existing account; refusals are `forbidden`. */
  transferUser(sessionToken: string, credentials: PipoTransferUserBody): Promise<void>;
  /** E22. */
  isTemp(sessionToken: string): Promise<boolean>;
  /** E23. Saved projects of the session user. */
  listProjects(sessionToken: string): Promise<PipoProject[]>;
  /** E24. `not_found` when missing or owned by another user. */
  getProject(sessionToken: string, projectId: number): Promise<PipoProject>;
  /** E25. */
  deleteProject(sessionToken: string, projectId: number): Promise<void>;
  /** E26. The new order's id. Invalid product ids are dropped by the service; none valid is `bad_request`. */
  createOrder(sessionToken: string, productIds: readonly number[], externalId?: string): Promise<number>;
  /** E27. Starts generation of print-ready files; see `waitForFiles`. Not retried: it starts work. */
  processOrder(sessionToken: string, orderId: number): Promise<void>;
  /**
   * R16/A07. The low-resolution PDF proof of a product or user project, from the editor host's
   * `download.ashx` (`editorUrl` is the storefront's {editor_url}): `forbidden` when the token has expired,
   * `not_found` when the session's user has no such design. Sent without the API credentials.
   */
  downloadProof(sessionToken: string, editorUrl: string, productId: number): Promise<PrintApiFile>;
}

const readToken = jsonReader(PipoSessionToken);
const readBoolean = jsonReader(z.boolean());
const readUser = jsonReader(PipoUser);
const readTempUser = jsonReader(PipoTempUserAnswer);
const readProject = jsonReader(PipoProject);
const readProjects = jsonReader(z.array(PipoProject));
const readOrderId = jsonReader(z.number().int());
const ProductIds = z.array(z.number().int().positive()).min(1);

export function createPipoApi(transport: Transport): PipoApi {
  const { call } = transport;
  const base = '/api/v2/pipo';

  /** A call in a PIPO user's session (Basic and X-PN-TOKEN); `retry` only where sending twice is harmless. */
  function asUser<T>(
    sessionToken: string,
    spec: { method: HttpMethod; path: string; retry: boolean; body?: unknown },
    read: ReadAnswer<T>,
  ): Promise<T> {
    return call(
      {
        method: spec.method,
        path: `${base}${spec.path}`,
        sessionToken: checkSessionToken(sessionToken),
        retry: spec.retry,
        ...(spec.body !== undefined && { body: JSON.stringify(spec.body) }),
      },
      read,
    );
  }

  /** A change to the session's own user (its details, made permanent, moved): sent once, answers nothing. */
  function changeUser(sessionToken: string, path: string, checkedBody: unknown): Promise<void> {
    return asUser(sessionToken, { method: 'POST', path, body: checkedBody, retry: false }, readNothing);
  }

  return {
    login(credentials) {
      const body = checkBody('login credentials', PipoLoginBody, credentials);
      return call(
        { method: 'POST', path: `${base}/user/login`, body: JSON.stringify(body), retry: true },
        readToken,
      );
    },
    logout: (sessionToken) =>
      asUser(sessionToken, { method: 'GET', path: '/user/logout', retry: false }, readNothing),
    isLoggedIn(sessionToken) {
      return asUser(sessionToken, { method: 'GET', path: '/user/loggedin', retry: true }, readBoolean).catch(
        (error: unknown) => {
          if (isPrintApiError(error) && error.code === 'forbidden') return false;
          throw error;
        },
      );
    },
    getUser: (sessionToken) =>
      asUser(sessionToken, { method: 'GET', path: '/user/info', retry: true }, readUser),
    updateUser: (sessionToken, body) =>
      changeUser(sessionToken, '/user/info', checkBody('updateUser body', PipoUpdateUserBody, body)),
    createUser(body) {
      const checked = checkBody('createUser body', PipoCreateUserBody, body);
      return call(
        { method: 'POST', path: `${base}/user/create`, body: JSON.stringify(checked), retry: false },
        readNothing,
      );
    },
    createTempUser(storefrontId) {
      const body = JSON.stringify({ storefront_id: checkPositiveInteger('storefrontId', storefrontId) });
      return call({ method: 'POST', path: `${base}/user/createtemp`, body, retry: false }, readTempUser);
    },
    convertUser: (sessionToken, body) =>
      changeUser(sessionToken, '/user/convert', checkBody('convertUser body', PipoConvertUserBody, body)),
    transferUser: (sessionToken, credentials) =>
      changeUser(
        sessionToken,
        '/user/transfer',
        checkBody('transferUser credentials', PipoTransferUserBody, credentials),
      ),
    isTemp: (sessionToken) =>
      asUser(sessionToken, { method: 'GET', path: '/user/istemp', retry: true }, readBoolean),
    listProjects: (sessionToken) =>
      asUser(sessionToken, { method: 'GET', path: '/project/all', retry: true }, readProjects),
    getProject(sessionToken, projectId) {
      const path = `/project/${checkPositiveInteger('projectId', projectId)}`;
      return asUser(sessionToken, { method: 'GET', path, retry: true }, readProject);
    },
    deleteProject(sessionToken, projectId) {
      const path = `/project/${checkPositiveInteger('projectId', projectId)}`;
      return asUser(sessionToken, { method: 'DELETE', path, retry: false }, readNothing);
    },
    createOrder(sessionToken, productIds, externalId) {
      const product_id = checkBody('createOrder productIds', ProductIds, productIds);
      if (externalId !== undefined && typeof externalId !== 'string') {
        throw new TypeError('createOrder externalId must be a string');
      }
      const body = externalId === undefined ? { product_id } : { product_id, external_id: externalId };
      return asUser(sessionToken, { method: 'POST', path: '/order/create', body, retry: false }, readOrderId);
    },
    processOrder(sessionToken, orderId) {
      const path = `/order/${checkPositiveInteger('orderId', orderId)}/process`;
      return asUser(sessionToken, { method: 'GET', path, retry: false }, readNothing);
    },
    downloadProof(sessionToken, editorUrl, productId) {
      const token = checkSessionToken(sessionToken);
      const url = createEditorUrls(editorUrl).proofUrl({ token, productId });
      return call(
        {
          method: 'GET',
          path: '/download.ashx',
          editorUrl: url,
          sessionToken: token,
          retry: true,
          file: true,
        },
        fileReader(`proof-${productId}.pdf`),
      );
    },
  };
}
