/**
 * Secret comparison whose running time does not depend on where two strings differ.
 *
 * Shared by every layer that checks a credential (OCI passwords, cXML shared secrets, the admin token, signed
 * tokens), so it lives in the kernel and knows nothing about any protocol. JavaScript gives no hard timing
 * guarantees, but a loop without early exit over padded byte arrays removes the data-dependent branches an
 * attacker could measure.
 */

const utf8 = new TextEncoder();

/**
 * Compares the UTF-8 bytes of two strings without an early exit.
 *
 * The loop always runs over the longer of the two byte sequences (the shorter is zero-padded), and a length
 * mismatch is folded into the result instead of returning early, so the time reveals at most the lengths.
 *
 * @example
 * constantTimeEqual(submittedPassword, buyer.password); // true only for an exact match
 */
export function constantTimeEqual(a: string, b: string): boolean {
  return constantTimeBytesEqual(utf8.encode(a), utf8.encode(b));
}

/**
 * `constantTimeEqual` for bytes (a MAC against the one computed), the loop that one runs on.
 *
 * @example
 * constantTimeBytesEqual(sentMac, expectedMac); // true only for the same bytes
 */
export function constantTimeBytesEqual(left: Uint8Array, right: Uint8Array): boolean {
  const length = Math.max(left.length, right.length);
  let difference = left.length ^ right.length;
  for (let i = 0; i < length; i++) {
    // Past the end of the shorter, 0: the zero padding, without copying either array.
    difference |= (left[i] ?? 0) ^ (right[i] ?? 0);
  }
  return difference === 0;
}
