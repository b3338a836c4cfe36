/**
 * The buyer's end user behind a punch-out. No extrinsic is guaranteed, so the identity is read from the
 * first of the places real procurement systems put it (cxml-notes §0.9); the key must come out the same
 * for the same person on every punch-out, because a mapped user's designs live in one print account.
 */
import { extrinsicValue, type PunchOutSetupRequest } from '../../cxml/index.ts';

export interface BuyerUser {
  /** Stable, case-folded identifier of the person within the buyer. */
  key: string;
  email?: string;
  firstName: string;
  lastName: string;
  /**
   * The punch-in named no person (no user extrinsic, e-mail or contact): a key shared by everyone would put
   * every user's designs into one permanent account, so such a user gets a temporary one or is refused.
   */
  anonymous?: true;
}

const ID_EXTRINSICS = ['UniqueName', 'UserEmail', 'Email', 'UniqueUsername', 'UserId', 'User'];
const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

function splitName(full: string): { firstName: string; lastName: string } {
  const parts = full.trim().split(/\s+/).filter(Boolean);
  if (parts.length === 0) return { firstName: 'Punch-out', lastName: 'User' };
  if (parts.length === 1) return { firstName: parts[0] ?? '', lastName: '-' };
  return { firstName: parts.slice(0, -1).join(' '), lastName: parts[parts.length - 1] ?? '' };
}

/** `jane.roe@acme.example` → `Jane Roe`: the best name a buyer that sends only an e-mail address gives. */
function nameFromEmail(email: string | undefined): string | undefined {
  const local = email?.split('@')[0];
  if (!local) return undefined;
  return local
    .split(/[._-]+/)
    .filter(Boolean)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join(' ');
}

export function buyerUserFromSetup(request: PunchOutSetupRequest): BuyerUser {
  const ext = (name: string) => extrinsicValue(request.extrinsics, name);
  const contactEmail = request.contacts.flatMap((c) => c.emails)[0];
  const emailCandidates = [ext('UserEmail'), ext('Email'), contactEmail, request.shipTo?.email];
  const email = emailCandidates.map((e) => e?.trim()).find((e) => e !== undefined && EMAIL.test(e));

  let key: string | undefined;
  for (const name of ID_EXTRINSICS) {
    const value = ext(name)?.trim();
    if (value) {
      key = value;
      break;
    }
  }
  key ??= email ?? request.contacts[0]?.name?.trim();
  const anonymous = key === undefined || key === '';
  if (key === undefined || key === '') key = 'anonymous';

  const first = ext('FirstName')?.trim();
  const last = ext('LastName')?.trim();
  const fullName =
    ext('UserFullName') ?? ext('UserPrintableName') ?? request.contacts[0]?.name ?? nameFromEmail(email);
  const names = first && last ? { firstName: first, lastName: last } : splitName(fullName ?? key);

  const user: BuyerUser = { key: key.toLowerCase(), ...names };
  if (email !== undefined) user.email = email;
  if (anonymous) user.anonymous = true;
  return user;
}
