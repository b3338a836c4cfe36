/**
 * A large, realistic OrderRequest: `lines` ItemOut lines in Ariba's layout, about 500 bytes each, so
 * 1,000 lines make the ~500 KB purchase order the parser must handle without trouble.
 */
export function largeOrderRequest(lines: number): string {
  const items: string[] = [];
  const skus = ['BC-STD', 'FLY-A5', 'POS-CUSTOM'];
  for (let line = 1; line <= lines; line++) {
    items.push(`      <ItemOut quantity="${(line % 9) + 1}" lineNumber="${line}" requestedDeliveryDate="2024-05-20">
        <ItemID>
          <SupplierPartID>${skus[line % 3]}</SupplierPartID>
          <SupplierPartAuxiliaryID>L-${String(line).padStart(6, '0')}</SupplierPartAuxiliaryID>
        </ItemID>
        <ItemDetail>
          <UnitPrice><Money currency="EUR">12.50</Money></UnitPrice>
          <Description xml:lang="en">Print item ${line}, 350 g matt</Description>
          <UnitOfMeasure>EA</UnitOfMeasure>
          <Classification domain="UNSPSC">82121500</Classification>
          <Extrinsic name="designId">D-${line}</Extrinsic>
        </ItemDetail>
        <Comments xml:lang="en">Line ${line}</Comments>
      </ItemOut>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE cXML SYSTEM "http://xml.cxml.org/schemas/cXML/1.2.044/cXML.dtd">
<cXML payloadID="1714730000000.large@buyer.example" timestamp="2024-05-03T12:33:20+02:00" xml:lang="en-US">
  <Header>
    <From><Credential domain="NetworkID"><Identity>AN01000000001</Identity></Credential></From>
    <To><Credential domain="NetworkID"><Identity>AN02000000002</Identity></Credential></To>
    <Sender>
      <Credential domain="NetworkID"><Identity>AN01000000001</Identity><SharedSecret>acme-secret</SharedSecret></Credential>
      <UserAgent>Ariba Network 1.2</UserAgent>
    </Sender>
  </Header>
  <Request>
    <OrderRequest>
      <OrderRequestHeader orderID="0004500999" orderDate="2024-05-03T12:30:00+02:00" type="new">
        <Total><Money currency="EUR">${(lines * 12.5).toFixed(2)}</Money></Total>
        <ShipTo><Address isoCountryCode="DE" addressID="0100"><Name xml:lang="en">0100</Name>
          <PostalAddress><Street>Kieler Straße 371-377</Street><City>Hamburg</City><PostalCode>22525</PostalCode><Country isoCountryCode="DE">Germany</Country></PostalAddress>
        </Address></ShipTo>
        <BillTo><Address><Name xml:lang="en">ACME GmbH</Name></Address></BillTo>
      </OrderRequestHeader>
${items.join('\n')}
    </OrderRequest>
  </Request>
</cXML>
`;
}
