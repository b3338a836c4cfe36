/**
 * Customer accounts and PIPO users (one record: the PIPO user id is the customer id): login and sessions,
 * create and createtemp, convert (T08), transfer (T09, P04), info updates (P01, P02), logout (T10), and the
 * admin's customer CRUD with its customer_* events (N04–N06).
 */

import { constantTimeEqual } from 'punchgate/kernel';
import type {
  PipoConvertUserBody,
  PipoCreateUserBody,
  PipoUpdateUserBody,
} from 'punchgate/schemas/print-api';
import { customerResource } from './resources.ts';
import { SandboxError } from './sandbox-error.ts';
import type { SandboxService } from './service.ts';
import { type CustomerRecord, type SessionRecord, usernameKey } from './state.ts';
import type { KeepAlive } from './webhooks.ts';

/** Expired sessions are swept each time the map reaches a multiple of this size, so it stays bounded. */
const SESSION_SWEEP_EVERY = 1024;

function emitCustomerEvent(
  service: SandboxService,
  event: 'customer_created' | 'customer_updated' | 'customer_deleted',
  customer: CustomerRecord,
  keepAlive?: KeepAlive,
): void {
  const licenseId = service.state.storefronts.get(customer.storefrontId)!.licenseId;
  if (service.webhooks.hooksFor(licenseId, event).length === 0) return;
  service.webhooks.emit(licenseId, event, customerResource(service.state, customer), keepAlive);
}

/** A storefront of the license; a 400 naming the id otherwise. */
export function licensedStorefront(service: SandboxService, licenseId: number, storefrontId: number) {
  const storefront = service.state.storefronts.get(storefrontId);
  if (storefront === undefined || storefront.licenseId !== licenseId) {
    throw SandboxError.invalid(`storefront_id ${storefrontId} is not a storefront of this license.`);
  }
  return storefront;
}

function findUserByName(
  service: SandboxService,
  storefrontId: number,
  username: string,
): CustomerRecord | undefined {
  const id = service.state.usernames.get(usernameKey(storefrontId, username));
  const user = id === undefined ? undefined : service.state.customers.get(id);
  return user === undefined || user.deleted ? undefined : user;
}

function emailTaken(service: SandboxService, storefrontId: number, email: string, except?: number): boolean {
  const wanted = email.toLowerCase();
  for (const c of service.state.customers.values()) {
    if (
      c.storefrontId === storefrontId &&
      !c.deleted &&
      c.id !== except &&
      c.email.toLowerCase() === wanted
    ) {
      return true;
    }
  }
  return false;
}

/** The X22 checks: username first, then email, both unique per storefront, case-insensitively. */
function checkUnused(
  service: SandboxService,
  storefrontId: number,
  username: string,
  email: string,
  except?: number,
): void {
  const holder = findUserByName(service, storefrontId, username);
  if (holder !== undefined && holder.id !== except) throw SandboxError.of('duplicateUserName');
  if (email !== '' && emailTaken(service, storefrontId, email, except))
    throw SandboxError.of('duplicateEmail');
}

function openSession(service: SandboxService, user: CustomerRecord, licenseId: number): SessionRecord {
  const { sessions } = service.state;
  const now = service.now();
  if (sessions.size > 0 && sessions.size % SESSION_SWEEP_EVERY === 0) {
    for (const [token, s] of sessions) if (s.expiresAt <= now) sessions.delete(token);
  }
  const session = {
    token: service.randomHex(32),
    userId: user.id,
    licenseId,
    expiresAt: now + service.sessionIdleMs,
  };
  sessions.set(session.token, session);
  user.lastLoggedInOn = now;
  return session;
}

/** POST /pipo/user/login: the session token, or undefined for any mismatch (401 without a message, X05). */
export function login(
  service: SandboxService,
  licenseId: number,
  storefrontId: number,
  username: string,
  password: string,
): SessionRecord | undefined {
  const storefront = service.state.storefronts.get(storefrontId);
  if (storefront === undefined || storefront.licenseId !== licenseId) return undefined;
  const user = findUserByName(service, storefrontId, username);
  if (user === undefined || !constantTimeEqual(password, user.password)) return undefined;
  return openSession(service, user, licenseId);
}

export function logout(service: SandboxService, session: SessionRecord): void {
  service.state.sessions.delete(session.token);
}

export interface NewCustomer {
  readonly storefrontId: number;
  readonly username: string;
  readonly password: string;
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly company?: string;
  readonly isTemp?: boolean;
}

/** Creates a customer account after the X22 checks; fires customer_created for permanent accounts (N04). */
export function createCustomer(
  service: SandboxService,
  input: NewCustomer,
  keepAlive?: KeepAlive,
): CustomerRecord {
  checkUnused(service, input.storefrontId, input.username, input.email);
  const { state } = service;
  const now = service.now();
  const customer: CustomerRecord = {
    id: state.next.customer++,
    storefrontId: input.storefrontId,
    username: input.username,
    password: input.password,
    email: input.email,
    firstName: input.firstName,
    lastName: input.lastName,
    company: input.company ?? '',
    isTemp: input.isTemp ?? false,
    receiveMarketingEmails: false,
    taxExempt: false,
    organization: null,
    userGroups: [],
    salesRep: '',
    address: undefined,
    createdOn: now,
    lastUpdatedOn: now,
    lastLoggedInOn: now,
    deleted: false,
    albums: [],
  };
  state.customers.set(customer.id, customer);
  state.usernames.set(usernameKey(customer.storefrontId, customer.username), customer.id);
  if (!customer.isTemp) emitCustomerEvent(service, 'customer_created', customer, keepAlive);
  return customer;
}

/** POST /pipo/user/create. */
export function createPipoUser(service: SandboxService, body: PipoCreateUserBody, keepAlive?: KeepAlive) {
  return createCustomer(
    service,
    {
      storefrontId: body.storefront_id,
      username: body.username,
      password: body.password,
      email: body.email,
      firstName: body.first_name,
      lastName: body.last_name,
    },
    keepAlive,
  );
}

/** POST /pipo/user/createtemp: generated username and password, no e-mail, no event. */
export function createTempUser(service: SandboxService, storefrontId: number): CustomerRecord {
  let username = `temp-${service.randomHex(6)}`;
  while (findUserByName(service, storefrontId, username) !== undefined)
    username = `temp-${service.randomHex(6)}`;
  return createCustomer(service, {
    storefrontId,
    username,
    password: service.randomHex(12),
    email: '',
    firstName: '',
    lastName: '',
    isTemp: true,
  });
}

/**
 * POST /pipo/user/convert (T08): a temporary user becomes permanent with the given credentials;
 * customer_created fires. A permanent user gets 403 `current user is not temporary` (as transfer does).
 */
export function convertUser(
  service: SandboxService,
  user: CustomerRecord,
  body: PipoConvertUserBody,
  keepAlive?: KeepAlive,
): CustomerRecord {
  if (!user.isTemp) throw SandboxError.of('transferNotTemporary');
  checkUnused(service, user.storefrontId, body.username, body.email, user.id);
  const { usernames } = service.state;
  usernames.delete(usernameKey(user.storefrontId, user.username));
  user.username = body.username;
  user.password = body.password;
  user.email = body.email;
  user.firstName = body.first_name;
  user.lastName = body.last_name;
  user.isTemp = false;
  user.lastUpdatedOn = service.now();
  usernames.set(usernameKey(user.storefrontId, user.username), user.id);
  emitCustomerEvent(service, 'customer_created', user, keepAlive);
  return user;
}

/**
 * POST /pipo/user/transfer (T09, P04): the temporary user's image albums and saved projects move to the
 * destination account, and the session token now identifies the destination.
 */
export function transferUser(
  service: SandboxService,
  session: SessionRecord,
  user: CustomerRecord,
  username: string,
  password: string,
): CustomerRecord {
  if (!user.isTemp) throw SandboxError.of('transferNotTemporary');
  const destination = findUserByName(service, user.storefrontId, username);
  if (destination === undefined) throw SandboxError.of('transferUnknownUser');
  if (!constantTimeEqual(password, destination.password)) throw SandboxError.of('transferWrongPassword');
  if (destination.id === user.id) return destination;
  for (const project of service.state.projects.values()) {
    if (project.ownerId === user.id) project.ownerId = destination.id;
  }
  destination.albums.push(...user.albums);
  user.albums = [];
  session.userId = destination.id;
  return destination;
}

/**
 * POST /pipo/user/info: names are applied to permanent users only (P01); the password changes only when
 * current_password is right and differs from new_password (P02). What is not applied is skipped silently.
 * customer_updated fires when anything changed (N05).
 */
export function updateUserInfo(
  service: SandboxService,
  user: CustomerRecord,
  body: PipoUpdateUserBody,
  keepAlive?: KeepAlive,
): void {
  if (user.isTemp) return;
  let changed = false;
  if (body.first_name !== undefined && body.first_name !== user.firstName) {
    user.firstName = body.first_name;
    changed = true;
  }
  if (body.last_name !== undefined && body.last_name !== user.lastName) {
    user.lastName = body.last_name;
    changed = true;
  }
  if (
    body.current_password !== undefined &&
    body.new_password !== undefined &&
    body.new_password !== '' &&
    constantTimeEqual(body.current_password, user.password) &&
    body.new_password !== body.current_password
  ) {
    user.password = body.new_password;
    changed = true;
  }
  if (!changed) return;
  user.lastUpdatedOn = service.now();
  emitCustomerEvent(service, 'customer_updated', user, keepAlive);
}

export interface CustomerChanges {
  readonly email?: string | undefined;
  readonly firstName?: string | undefined;
  readonly lastName?: string | undefined;
  readonly company?: string | undefined;
  readonly receiveMarketingEmails?: boolean | undefined;
  readonly taxExempt?: boolean | undefined;
}

/** The admin updates a customer profile (control API): customer_updated (N05). */
export function updateCustomer(
  service: SandboxService,
  customer: CustomerRecord,
  changes: CustomerChanges,
  keepAlive?: KeepAlive,
): void {
  if (changes.email !== undefined && changes.email !== '') {
    if (emailTaken(service, customer.storefrontId, changes.email, customer.id)) {
      throw SandboxError.of('duplicateEmail');
    }
  }
  if (changes.email !== undefined) customer.email = changes.email;
  if (changes.firstName !== undefined) customer.firstName = changes.firstName;
  if (changes.lastName !== undefined) customer.lastName = changes.lastName;
  if (changes.company !== undefined) customer.company = changes.company;
  if (changes.receiveMarketingEmails !== undefined)
    customer.receiveMarketingEmails = changes.receiveMarketingEmails;
  if (changes.taxExempt !== undefined) customer.taxExempt = changes.taxExempt;
  customer.lastUpdatedOn = service.now();
  emitCustomerEvent(service, 'customer_updated', customer, keepAlive);
}

/** The admin soft-deletes a customer (control API): their sessions end; customer_deleted (N06). */
export function deleteCustomer(
  service: SandboxService,
  customer: CustomerRecord,
  keepAlive?: KeepAlive,
): void {
  const { state } = service;
  customer.deleted = true;
  customer.lastUpdatedOn = service.now();
  state.usernames.delete(usernameKey(customer.storefrontId, customer.username));
  for (const [token, session] of state.sessions)
    if (session.userId === customer.id) state.sessions.delete(token);
  emitCustomerEvent(service, 'customer_deleted', customer, keepAlive);
}
