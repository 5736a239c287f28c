/**
 * Where a JSON text holds a number that is not an exact integer (Part B 2.5: floats in an elevation's context are
 * refused; amounts are integers in minor units). JSON numbers have no type: the text is the only witness, so the
 * raw body is read, not the parsed value (`1.0` parses to `1`). A number with a fraction part or an exponent is a
 * float whatever its value (`1.0`, `1e2` and `100E0` are refused); an integer outside ±(2^53 − 1) is refused too,
 * as it would not survive parsing exactly. Answers the dotted path of the first one, or undefined.
 *
 * Only called on text the kernel's JSON parser accepted, so the scan can trust its structure.
 */
export function inexactNumberAt(text: string): string | undefined {
  // For each open container: an object (its current key) or an array (its current index).
  const stack: Array<{ kind: 'object'; key: string | undefined } | { kind: 'array'; index: number }> = [];
  let expectKey = false;
  let i = 0;
  const here = () =>
    stack
      .map((frame) => (frame.kind === 'object' ? frame.key : frame.index))
      .filter((part) => part !== undefined)
      .join('.') || 'body';
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (expectKey) {
        const frame = stack[stack.length - 1];
        if (frame?.kind === 'object') frame.key = JSON.parse(text.slice(i, j + 1)) as string;
        expectKey = false;
      }
      i = j + 1;
    } else if (c === '{') {
      stack.push({ kind: 'object', key: undefined });
      expectKey = true;
      i++;
    } else if (c === '[') {
      stack.push({ kind: 'array', index: 0 });
      i++;
    } else if (c === '}' || c === ']') {
      stack.pop();
      i++;
    } else if (c === ',') {
      const frame = stack[stack.length - 1];
      if (frame?.kind === 'array') frame.index++;
      else expectKey = true;
      i++;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let j = i + 1;
      while (j < text.length && /[0-9+\-.eE]/.test(text[j]!)) j++;
      const token = text.slice(i, j);
      if (/[.eE]/.test(token) || !Number.isSafeInteger(Number(token))) return here();
      i = j;
    } else {
      i++;
    }
  }
  return undefined;
}
