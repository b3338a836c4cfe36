/**
 * The people who punch out from the simulated procurement system. Their names, e-mails and cost centres
 * travel in setup-request extrinsics, OCI punch-in fields and the purchase order's Contact, so a demo
 * shows how a gateway recognises the same person on every punch-out. One name is non-ASCII on purpose:
 * it has to survive cXML, base64, urlencoded and Latin-1 OCI round trips.
 */

export interface DemoUser {
  /** The procurement system's login (Ariba UniqueName, Coupa login, SAP user). */
  readonly id: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly email: string;
  readonly department: string;
  readonly costCenter: string;
  readonly phone: string;
}

export const DEMO_USERS: readonly DemoUser[] = [
  {
    id: 'jroe',
    firstName: 'Jane',
    lastName: 'Roe',
    email: 'jane.roe@acme.example',
    department: 'Marketing',
    costCenter: 'CC-4711',
    phone: '+1 415 555 0134',
  },
  {
    id: 'mmueller',
    firstName: 'Max',
    lastName: 'Müller',
    email: 'max.mueller@acme.example',
    department: 'Vertrieb',
    costCenter: 'CC-0815',
    phone: '+49 40 555 0199',
  },
  {
    id: 'akowalska',
    firstName: 'Anna',
    lastName: 'Kowalska',
    email: 'anna.kowalska@acme.example',
    department: 'Facilities',
    costCenter: 'CC-2020',
    phone: '+48 22 555 0177',
  },
];

export function fullName(user: DemoUser): string {
  return `${user.firstName} ${user.lastName}`;
}
