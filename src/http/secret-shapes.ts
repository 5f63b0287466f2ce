/**
 * Text shaped like a credential, found wherever it is (a logged URL, path or query, a header,
 * a request id) so that it can be kept out of the logs: a key placed where it does not
 * authenticate (`?token=`, `?apikey%3D...`, the path, `X-Request-Id`) is still somebody's
 * key. Shapes: our API keys (43 letters and digits; earlier ones base64url), publishable keys
 * (`pk_`), webhook secrets (`whsec_`), `Bearer` and `Basic` credentials, and any long random
 * token (a session id, someone else's key). Errs on the side of hiding: a 32-character hex
 * ticket code is hidden too; ids (24 hex), UUIDs, dates and word slugs are not.
 */

export const REDACTED = '[redacted]';

/** A base64 character, raw or percent-encoded (`+`, `/`, `=`). */
const B64 = '(?:[A-Za-z0-9+/=_-]|%2[BbFf]|%3[Dd])';

const AUTHORIZATION = new RegExp(`\\b(bearer|basic)((?:\\s|\\+|%20)+)${B64}{8,}`, 'gi');
const PREFIXED = new RegExp(`\\b(pk|sk|whsec)_${B64}{8,}`, 'g');
/** Runs of base64url characters long enough to be a token (our shortest secret has 32). */
const LONG_RUN = /[A-Za-z0-9_-]{32,}/g;
const UUID = /^[0-9a-f]{8}(?:-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i;

/**
 * Whether a long run of letters, digits, `-` and `_` looks random rather than written: it
 * mixes letters and digits, or holds a capital letter or an underscore. A random key
 * without any of these has odds of about 1 in 10^16; lower-case words joined by hyphens
 * (a slug) and digits joined by hyphens are what is left, and they are kept.
 */
function looksRandom(run: string): boolean {
  if (UUID.test(run)) return false;
  return (/[A-Za-z]/.test(run) && /\d/.test(run)) || /[A-Z_]/.test(run);
}

/** The text with everything shaped like a credential replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  return text
    .replace(AUTHORIZATION, (_, scheme: string, gap: string) => `${scheme}${gap}${REDACTED}`)
    .replace(PREFIXED, (_, prefix: string) => `${prefix}_${REDACTED}`)
    .replace(LONG_RUN, (run) => (looksRandom(run) ? REDACTED : run));
}

/** Whether the text holds anything shaped like a credential. */
export const holdsSecret = (text: string): boolean => redactSecrets(text) !== text;
