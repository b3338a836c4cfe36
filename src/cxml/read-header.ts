/**
 * Reading `<Header>`: every credential of every party, because buyers send several (Ariba: 3 From,
 * 4 To, 2 Sender) and authenticate on different ones.
 */
import { CxmlError } from './error.ts';
import type { Credential, CxmlHeader } from './request-types.ts';
import { attr, child, children, text, type XmlNode } from './xml-node.ts';

function readCredentials(party: XmlNode | undefined): Credential[] {
  return children(party, 'Credential').map((node) => {
    const sharedSecret = child(node, 'SharedSecret');
    const type = attr(node, 'type');
    return {
      domain: attr(node, 'domain') ?? '',
      identity: text(child(node, 'Identity')),
      ...(sharedSecret === undefined ? {} : { sharedSecret: text(sharedSecret) }),
      ...(type === undefined || type === '' ? {} : { type }),
    };
  });
}

export function readHeader(envelope: XmlNode): CxmlHeader {
  const header = child(envelope, 'Header');
  if (header === undefined) throw new CxmlError('missing_field', 'cXML has no Header');
  const sender = child(header, 'Sender');
  return {
    from: readCredentials(child(header, 'From')),
    to: readCredentials(child(header, 'To')),
    sender: { credentials: readCredentials(sender), userAgent: text(child(sender, 'UserAgent')) },
  };
}

/**
 * The credentials in a domain, compared case-insensitively (`NetworkID`, `NetworkId`, `networkid`).
 *
 * @example
 * credentialsInDomain(request.header.from, 'networkid').map((c) => c.identity);
 */
export function credentialsInDomain(credentials: readonly Credential[], domain: string): Credential[] {
  const wanted = domain.toLowerCase();
  return credentials.filter((credential) => credential.domain.toLowerCase() === wanted);
}
