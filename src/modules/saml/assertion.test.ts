import { describe, expect, it } from 'vitest';
import { ATTRIBUTES, attributesOf, first } from './assertion.js';
import { parseXml } from './xml.js';

const attribute = (name: string, ...values: string[]) =>
  `<saml:Attribute Name="${name}">${values.map((v) => `<saml:AttributeValue>${v}</saml:AttributeValue>`).join('')}</saml:Attribute>`;
const assertion = (...statements: string[][]) =>
  parseXml(
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${statements
      .map((attributes) => `<saml:AttributeStatement>${attributes.join('')}</saml:AttributeStatement>`)
      .join('')}</saml:Assertion>`,
  );

describe('SAML attributes of an assertion', () => {
  it('reads each attribute by its lowercased name, first value only', () => {
    const values = attributesOf(assertion([attribute('EmailAddress', 'ada@example.com', 'other@example.com')]));
    expect([...values]).toEqual([['emailaddress', 'ada@example.com']]);
  });

  it('keeps the first occurrence of a name, across statements too', () => {
    const values = attributesOf(
      assertion(
        [attribute('mail', 'first@example.com'), attribute('MAIL', 'second@example.com')],
        [attribute('mail', 'third@example.com')],
      ),
    );
    expect(values.get('mail')).toBe('first@example.com');
  });

  it('skips attributes without a name or a value, so a later one can fill in', () => {
    const values = attributesOf(
      assertion([
        '<saml:Attribute><saml:AttributeValue>nameless</saml:AttributeValue></saml:Attribute>',
        attribute('mail'),
        attribute('mail', ''),
        attribute('mail', 'ada@example.com'),
      ]),
    );
    expect([...values]).toEqual([['mail', 'ada@example.com']]);
  });

  it('ignores attributes outside an AttributeStatement and in other namespaces', () => {
    const root = parseXml(
      '<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" xmlns:x="urn:example">' +
        '<saml:Attribute Name="mail"><saml:AttributeValue>loose@example.com</saml:AttributeValue></saml:Attribute>' +
        '<x:AttributeStatement><saml:Attribute Name="mail"><saml:AttributeValue>x@example.com</saml:AttributeValue></saml:Attribute></x:AttributeStatement>' +
        '</saml:Assertion>',
    );
    expect(attributesOf(root).size).toBe(0);
  });
});

describe('mapping attribute names to the person', () => {
  const person = (attributes: string[]) => {
    const values = attributesOf(assertion(attributes));
    return {
      email: first(values, ATTRIBUTES.email),
      givenName: first(values, ATTRIBUTES.givenName),
      familyName: first(values, ATTRIBUTES.familyName),
      name: first(values, ATTRIBUTES.name),
    };
  };

  it('understands the names of Entra ID / ADFS claims', () => {
    expect(
      person([
        attribute('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'ada@example.com'),
        attribute('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname', 'Ada'),
        attribute('http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname', 'Lovelace'),
        attribute('http://schemas.microsoft.com/identity/claims/displayname', 'Ada Lovelace'),
      ]),
    ).toEqual({ email: 'ada@example.com', givenName: 'Ada', familyName: 'Lovelace', name: 'Ada Lovelace' });
  });

  it('understands Shibboleth OIDs and Okta-style names', () => {
    expect(
      person([
        attribute('urn:oid:0.9.2342.19200300.100.1.3', 'ada@example.com'),
        attribute('urn:oid:2.5.4.42', 'Ada'),
        attribute('urn:oid:2.5.4.4', 'Lovelace'),
        attribute('urn:oid:2.16.840.1.113730.3.1.241', 'Ada L.'),
      ]),
    ).toEqual({ email: 'ada@example.com', givenName: 'Ada', familyName: 'Lovelace', name: 'Ada L.' });
    expect(person([attribute('firstName', 'Ada'), attribute('lastName', 'Lovelace')])).toMatchObject({
      givenName: 'Ada',
      familyName: 'Lovelace',
    });
  });

  it('prefers names in the listed order, not the document order', () => {
    expect(person([attribute('mail', 'second@example.com'), attribute('email', 'first@example.com')]).email).toBe(
      'first@example.com',
    );
    expect(person([attribute('surname', 'Later'), attribute('sn', 'Sooner')]).familyName).toBe('Sooner');
  });

  it('maps nothing from unknown names', () => {
    expect(person([attribute('e-mail', 'ada@example.com'), attribute('fullname', 'Ada')])).toEqual({
      email: undefined,
      givenName: undefined,
      familyName: undefined,
      name: undefined,
    });
  });
});
