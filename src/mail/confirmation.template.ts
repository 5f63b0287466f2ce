/**
 * The order emails (the confirmation, and the cancellation): subject (the booking's code,
 * never the seller's text), plain-text part and HTML part, from the Order view.
 *
 * The HTML is built with the `html` tag below, which escapes every interpolated value unless
 * it is itself the output of `html`: escaping is the default, so a forgotten call cannot let
 * a customer name (or a guide's bio) inject markup.
 */
import { DateTime, FixedOffsetZone } from 'luxon';
import type { OrderItemView, OrderView } from '../modules/orders/index.js';
import { ITEM_STATUS } from '../modules/orders/index.js';
import { offsetAt, zoneNamed } from '../modules/schedules/index.js';

/** A guide as the confirmation shows it (the guide's public profile). */
export interface GuideContact {
  name: string;
  phone?: string | null;
  email?: string | null;
  bio?: string | null;
}

export interface ConfirmationInput {
  order: OrderView;
  /** Item id -> IANA zone the item was booked in; without it the UTC offset is shown. */
  timezones?: ReadonlyMap<string, string>;
  /**
   * Item id -> guides to show for that item (each item is its own event, with its own
   * guides). Filled where the experience's `guide.includeInConfirmation` is set; items
   * without guides show none.
   */
  guides?: ReadonlyMap<string, readonly GuideContact[]>;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

class SafeHtml {
  constructor(readonly value: string) {}
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** What may be interpolated: text and numbers (escaped), markup from `html`, lists of these. */
type HtmlValue = SafeHtml | string | number | false | null | undefined | readonly HtmlValue[];

function fragment(value: HtmlValue): string {
  if (typeof value === 'string') return escapeHtml(value);
  if (typeof value === 'number') return escapeHtml(String(value));
  if (value instanceof SafeHtml) return value.value;
  if (value === null || value === undefined || value === false) return '';
  return value.map(fragment).join('');
}

function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, i) => (out += fragment(value) + strings[i + 1]!));
  return new SafeHtml(out);
}

const money = (amount: number, currency: string) => `${amount.toFixed(2)} ${currency}`;

/**
 * "Fri 8 Nov 2019, 10:00 (Europe/Paris)": the local wall time the customer arrives at. The
 * zone's offset comes from the schedules' cache (Luxon asks Intl for it afresh each time,
 * once an email); an unknown zone name (should not happen) falls back to the offset the
 * time carries.
 */
function localArrival(item: OrderItemView, zone: string | undefined): string {
  const at = DateTime.fromISO(item.arrivalDatetime, { setZone: true });
  if (!at.isValid) return item.arrivalDatetime;
  const rules = zone === undefined ? undefined : zoneNamed(zone);
  const zoned = rules
    ? at.setZone(FixedOffsetZone.instance(offsetAt(zone!, rules, at.toMillis())))
    : at;
  const local = zoned.setLocale('en');
  const label = rules ? zone : `UTC${local.toFormat('ZZ')}`;
  return `${local.toFormat('ccc d LLL yyyy, HH:mm')} (${label})`;
}

interface ItemLines {
  item: OrderItemView;
  when: string;
  canceled: boolean;
  guides: readonly GuideContact[];
}

function describeItems(input: ConfirmationInput): ItemLines[] {
  return input.order.items.map((item) => ({
    item,
    when: localArrival(item, input.timezones?.get(item.id)),
    canceled: item.status === ITEM_STATUS.canceled,
    guides: input.guides?.get(item.id) ?? [],
  }));
}

/** What tells the two order emails apart. */
interface Wording {
  subject: string;
  headline: string;
  closing: string;
}

const WORDING: Record<'confirmation' | 'cancellation', Wording> = {
  confirmation: {
    subject: 'Booking confirmed',
    headline: 'Your booking is confirmed.',
    closing: 'Thank you for your booking.',
  },
  cancellation: {
    subject: 'Booking canceled',
    headline: 'Your booking has been canceled.',
    closing: 'We hope to see you another time.',
  },
};

/**
 * The code the guest gives: the order's short code (eight characters, unique per seller,
 * what staff search by), not its 24-character id, which no one can read aloud.
 */
const READ_OUT = 'give it when you arrive or call';

/**
 * The subject names the booking by its short code, which the service draws (booking-codes.ts),
 * and nothing the seller wrote: an experience's name is the seller's free text, and anyone
 * may sign up as a seller, so "Booking confirmed: <name>" let a name such as "Your account is
 * locked, verify at ..." head a mail from the service's own sender. The items are named in
 * the body, escaped. The invitation email keeps the seller's name out of its subject too.
 */
function subjectOf(order: OrderView, wording: Wording): string {
  // Header values are one line (a code has no line break; kept as a guard).
  return `${wording.subject}: ${order.shortCode}`.replace(/[\r\n]+/g, ' ');
}

/**
 * A name as the greeting shows it: on one line. A name is free text, and one typed with line
 * breaks at a public checkout would otherwise write its own paragraphs into a mail from the
 * seller.
 */
export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function guideText(guide: GuideContact): string[] {
  const contact = [guide.phone, guide.email].filter(Boolean).join(', ');
  return [
    `     - ${guide.name}${contact ? ` (${contact})` : ''}`,
    ...(guide.bio ? [`       ${guide.bio}`] : []),
  ];
}

function textOf(order: OrderView, items: ItemLines[], wording: Wording): string {
  const lines = [`Hello ${oneLine(order.customerName)},`, '', wording.headline, ''];
  lines.push(`Your booking code: ${order.shortCode} (${READ_OUT})`, '');
  items.forEach(({ item, when, canceled, guides }, i) => {
    lines.push(`${i + 1}. ${item.name}${canceled ? ' (canceled)' : ''}`);
    lines.push(`   Arrival: ${when}`);
    lines.push(`   Quantity: ${item.quantity}`);
    lines.push(`   Amount: ${money(item.amount, order.currency)}`);
    if (guides.length > 0) lines.push('   Your guides:', ...guides.flatMap(guideText));
    lines.push('');
  });
  lines.push(`Total: ${money(order.amount, order.currency)}`, '', wording.closing);
  return lines.join('\n') + '\n';
}

function guideHtml(guide: GuideContact): SafeHtml {
  return html`<li>
    <strong>${guide.name}</strong>${guide.phone ? html`<br />${guide.phone}` : ''}${
      guide.email ? html`<br />${guide.email}` : ''
    }${guide.bio ? html`<br /><em>${guide.bio}</em>` : ''}
  </li>`;
}

function htmlOf(order: OrderView, items: ItemLines[], subject: string, wording: Wording): string {
  const rows = items.map(
    ({ item, when, canceled, guides }) =>
      html` <tr>
        <td>
          ${item.name}${canceled ? ' (canceled)' : ''}${
            guides.length > 0
              ? html`<br />Your guides:
                  <ul>
                    ${guides.map(guideHtml)}
                  </ul>`
              : ''
          }
        </td>
        <td>${when}</td>
        <td style="text-align:right">${item.quantity}</td>
        <td style="text-align:right">${money(item.amount, order.currency)}</td>
      </tr>`,
  );
  return html`<!doctype html>
    <html>
      <head>
        <meta charset="utf-8" />
        <title>${subject}</title>
      </head>
      <body>
        <p>Hello ${oneLine(order.customerName)},</p>
        <p>${wording.headline}</p>
        <p>
          Your booking code: <strong><code>${order.shortCode}</code></strong> (${READ_OUT})
        </p>
        <table cellpadding="6" style="border-collapse:collapse">
          <thead>
            <tr>
              <th align="left">Experience</th>
              <th align="left">Arrival</th>
              <th>Quantity</th>
              <th>Amount</th>
            </tr>
          </thead>
          <tbody>
            ${rows}
          </tbody>
          <tfoot>
            <tr>
              <td colspan="3"><strong>Total</strong></td>
              <td style="text-align:right">
                <strong>${money(order.amount, order.currency)}</strong>
              </td>
            </tr>
          </tfoot>
        </table>
        <p>${wording.closing}</p>
      </body>
    </html> `.value;
}

export function renderConfirmation(
  input: ConfirmationInput,
  kind: 'confirmation' | 'cancellation' = 'confirmation',
): RenderedEmail {
  const wording = WORDING[kind];
  const items = describeItems(input);
  const subject = subjectOf(input.order, wording);
  return {
    subject,
    text: textOf(input.order, items, wording),
    html: htmlOf(input.order, items, subject, wording),
  };
}
