/**
 * Text from outside the service (a webhook receiver's answer, an SMTP server's reply) made
 * fit for a `text` column. The API refuses such input at the door (http/input-text.ts), but
 * what a receiver or a relay answers is not input to refuse: it is a record of what
 * happened, and it must be storable whatever it says. PostgreSQL (and PGlite) refuse the NUL
 * character in text, and the statement fails: a receiver answering `200 "ok\0"` left its
 * attempt unrecordable, so the delivery came back with every lease, for ever
 * (review-hooks finding 2). Every store of outside text goes through `storableText`.
 */

/** What stands for a character that cannot be stored: the Unicode replacement character. */
const REPLACEMENT = '\ufffd';

/**
 * `text` with every NUL replaced by U+FFFD, and at most `maxLength` UTF-16 units long; a cut
 * never splits a surrogate pair (the half left would be stored as U+FFFD too, silently).
 */
export function storableText(text: string, maxLength = Infinity): string {
  let cut = text.length > maxLength ? text.slice(0, maxLength) : text;
  const last = cut.charCodeAt(cut.length - 1);
  if (cut !== text && last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return cut.replaceAll('\u0000', REPLACEMENT);
}
