import secureJson from 'secure-json-parse';
import { HttpError } from './errors.js';

export const MAX_JSON_DEPTH = 32;

/**
 * Nesting depth of a JSON text, counted without parsing it, so a hostile body cannot exhaust the stack of
 * the parser. Brackets inside strings do not count.
 */
export function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash escapes the next character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (deepest > MAX_JSON_DEPTH) return deepest;
    } else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}

/** Parses a JSON request body: empty is "no body"; too deep or malformed is 400; `__proto__` keys refused. */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new HttpError(400, `JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  try {
    return secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' });
  } catch {
    throw new HttpError(400, 'Malformed JSON body');
  }
}
