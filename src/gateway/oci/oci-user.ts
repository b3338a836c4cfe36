/**
 * The buyer's end user behind an OCI punch-in.
 *
 * OCI logs in with one catalog user per connection, usually a technical user shared by everyone at the
 * buyer, so the login alone does not tell people apart. SAP can add the person in catalog-specific fields
 * (customizing maps SY-UNAME, name and e-mail to any parameter name); SRM-MDM's names `userid`, `fname`,
 * `lname` and `email` are the common ones. The key is the first of: a user id parameter, an e-mail
 * parameter, the login user name. A buyer that sends neither shares one print account between its users
 * (with `userMode: "mapped"`); one that wants separate accounts sends `userid`, or uses temporary users.
 */
import { type OciPunchIn, ociParamValue } from '../../oci/index.ts';
import type { BuyerUser } from '../punchout/buyer-user.ts';

/** Parameter names that carry the person's SAP user id, compared without case. */
const USER_ID_PARAMS = ['userid', 'user_id', 'sy-uname', 'uname', 'sap-user'];
const EMAIL_PARAMS = ['email', 'useremail', 'user_email', 'e-mail'];
const FIRST_NAME_PARAMS = ['fname', 'firstname', 'first_name'];
const LAST_NAME_PARAMS = ['lname', 'lastname', 'last_name'];
const EMAIL = /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/;

function firstOf(punchIn: OciPunchIn, names: readonly string[], accept = (_: string) => true) {
  for (const name of names) {
    const value = ociParamValue(punchIn.params, name)?.trim();
    if (value && accept(value)) return value;
  }
  return undefined;
}

/**
 * @example
 * const user = buyerUserFromPunchIn(punchIn); // { key: 'jdoe', email: 'jane.doe@acme.example', … }
 */
export function buyerUserFromPunchIn(punchIn: OciPunchIn): BuyerUser {
  const email = firstOf(punchIn, EMAIL_PARAMS, (value) => EMAIL.test(value));
  const named = firstOf(punchIn, USER_ID_PARAMS) ?? email;
  // Without a user parameter only the catalog login is left, which every SAP user of the buyer shares.
  const key = named ?? punchIn.username.trim();
  const firstName = firstOf(punchIn, FIRST_NAME_PARAMS);
  const lastName = firstOf(punchIn, LAST_NAME_PARAMS);
  const user: BuyerUser = {
    key: key.toLowerCase(),
    // The print service wants both names; a shared technical user has none.
    firstName: firstName ?? (lastName === undefined ? 'SAP' : '-'),
    lastName: lastName ?? (firstName === undefined ? key : '-'),
  };
  if (email !== undefined) user.email = email;
  if (named === undefined) user.anonymous = true;
  return user;
}
