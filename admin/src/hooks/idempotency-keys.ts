/**
 * The staff app's side of issue 50's idempotency keys, the pure part: one key per submit, the same
 * key for every retry of that submit (the user pressing again after a timeout), a new one once it
 * succeeded or what is sent changed. useIdempotencyKey holds it for a form.
 */

export interface KeptKey {
  key: string;
  /** What the key was made for: the call and its body, as JSON. */
  submit: string;
}

/** The key for sending `submit`, and what to keep: the last key again when the same thing is sent again. */
export function keyForSubmit(last: KeptKey | null, submit: unknown, newKey: () => string): KeptKey {
  const text = JSON.stringify(submit);
  return last && last.submit === text ? last : { key: newKey(), submit: text };
}

/**
 * A random (version 4) UUID. crypto.randomUUID only exists in secure contexts; an installation
 * opened over plain HTTP on a local network still has getRandomValues.
 */
export function newUuid(source: Pick<Crypto, 'getRandomValues'> & { randomUUID?: () => string } = globalThis.crypto): string {
  if (typeof source.randomUUID === 'function') return source.randomUUID();
  const b = source.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
