/**
 * Reading addresses and contacts. Buyers send empty elements freely (JAGGAER: `<Email name=""/>`,
 * `<Fax><TelephoneNumber><Number/>…`), so blank values are left out rather than kept as ''.
 */
import type { Address, Contact } from './request-types.ts';
import { attr, child, children, childText, text, type XmlNode } from './xml-node.ts';

function nonBlank(values: readonly XmlNode[]): string[] {
  const out: string[] = [];
  for (const node of values) {
    const value = text(node);
    if (value !== '') out.push(value);
  }
  return out;
}

/** `<Phone><TelephoneNumber>` as one dialable string: `+1 888 5551212 x8888`. */
function readPhone(phone: XmlNode | undefined): string | undefined {
  const number = child(phone, 'TelephoneNumber');
  const subscriber = childText(number, 'Number');
  if (subscriber === undefined) return undefined;
  const country = childText(number, 'CountryCode');
  const area = childText(number, 'AreaOrCityCode');
  const extension = childText(number, 'Extension');
  const parts = [country === undefined ? undefined : `+${country.replace(/^\+/, '')}`, area, subscriber];
  const dialable = parts.filter((part) => part !== undefined).join(' ');
  return extension === undefined ? dialable : `${dialable} x${extension}`;
}

function firstPhone(node: XmlNode | undefined): string | undefined {
  for (const phone of children(node, 'Phone')) {
    const value = readPhone(phone);
    if (value !== undefined) return value;
  }
  return undefined;
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value === undefined || value === '' ? {} : { [key]: value }) as { [P in K]?: string };
}

/** The `<Address>` inside a ShipTo or BillTo. */
export function readAddress(container: XmlNode | undefined): Address | undefined {
  const address = child(container, 'Address');
  if (address === undefined) return undefined;
  const postal = child(address, 'PostalAddress');
  const country = child(postal, 'Country');
  const email = nonBlank(children(address, 'Email'))[0];
  return {
    ...optional('addressID', attr(address, 'addressID')),
    name: text(child(address, 'Name')),
    deliverTo: nonBlank(children(postal, 'DeliverTo')),
    street: nonBlank(children(postal, 'Street')),
    ...optional('city', childText(postal, 'City')),
    ...optional('municipality', childText(postal, 'Municipality')),
    ...optional('state', childText(postal, 'State')),
    ...optional('postalCode', childText(postal, 'PostalCode')),
    ...optional('country', text(country)),
    ...optional('isoCountryCode', attr(country, 'isoCountryCode') || attr(address, 'isoCountryCode')),
    ...optional('email', email),
    ...optional('phone', firstPhone(address)),
  };
}

export function readContacts(parent: XmlNode | undefined): Contact[] {
  return children(parent, 'Contact').map((contact) => ({
    ...optional('role', attr(contact, 'role')),
    name: text(child(contact, 'Name')),
    emails: nonBlank(children(contact, 'Email')),
    ...optional('phone', firstPhone(contact)),
  }));
}
