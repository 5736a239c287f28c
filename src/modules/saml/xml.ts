import { createRequire } from 'node:module';

export const NS = {
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
} as const;

/**
 * The part of a DOM element this module reads. Declared here rather than taken from the DOM library, whose global
 * types (fetch, Headers, timers) would replace Node's across the whole program.
 */
export interface XmlElement {
  readonly nodeType: number;
  readonly namespaceURI: string | null;
  readonly localName: string;
  readonly textContent: string | null;
  readonly childNodes: { readonly length: number; item(index: number): XmlElement | null };
  getAttribute(name: string): string | null;
}

interface XmlDocument {
  readonly documentElement: XmlElement | null;
}

type DomParser = new (options: {
  errorHandler: { warning(message: string): void; error(message: string): void; fatalError(message: string): void };
}) => { parseFromString(source: string, mimeType: string): XmlDocument | undefined };

// @xmldom/xmldom is the parser node-saml itself verifies signatures with; loaded untyped for the reason above.
const { DOMParser } = createRequire(import.meta.url)('@xmldom/xmldom') as { DOMParser: DomParser };

/** Why a document from an identity provider was not read. */
export class XmlRefused extends Error {}

/**
 * A document type declaration is how XML pulls in external entities (XXE) and expands entities exponentially
 * ("billion laughs"); SAML messages and metadata never need one, so any is refused before parsing, whatever the
 * parser would do with it.
 */
const DTD = /<!DOCTYPE|<!ENTITY/i;

/** Parses a document of an identity provider: no DTD, well-formed, or `XmlRefused`. Answers its root element. */
export function parseXml(source: string): XmlElement {
  if (DTD.test(source)) throw new XmlRefused('document type declarations (DTDs) are not allowed');
  let failure: string | undefined;
  const record = (message: string) => {
    failure ??= message;
  };
  const document = new DOMParser({
    errorHandler: { warning: () => undefined, error: record, fatalError: record },
  }).parseFromString(source, 'text/xml');
  const root = document?.documentElement;
  if (failure || !root) throw new XmlRefused('not well-formed XML');
  return root;
}

const ELEMENT_NODE = 1;

/** The element's child elements named `namespace`:`localName` (direct children only, as the schemas nest them). */
export function childrenOf(element: XmlElement, namespace: string, localName: string): XmlElement[] {
  const found: XmlElement[] = [];
  for (let index = 0; index < element.childNodes.length; index += 1) {
    const node = element.childNodes.item(index);
    if (node?.nodeType === ELEMENT_NODE && node.namespaceURI === namespace && node.localName === localName) {
      found.push(node);
    }
  }
  return found;
}

export const childOf = (element: XmlElement, namespace: string, localName: string): XmlElement | undefined =>
  childrenOf(element, namespace, localName)[0];

/** An attribute's value; undefined when absent or empty (xmldom answers "" for an absent attribute). */
export function attributeOf(element: XmlElement, name: string): string | undefined {
  const value = element.getAttribute(name);
  return value ? value : undefined;
}

/** The element's text, trimmed; undefined when empty. */
export function textOf(element: XmlElement | undefined): string | undefined {
  const value = element?.textContent?.trim();
  return value ? value : undefined;
}

export const is = (element: XmlElement, namespace: string, localName: string) =>
  element.namespaceURI === namespace && element.localName === localName;

/** Escapes a value for an XML attribute or text node. */
export const escapeXml = (value: string) =>
  value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
