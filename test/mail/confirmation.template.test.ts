/** The confirmation template (pure) and the retry backoff. */
import { describe, expect, it } from 'vitest';
import { retryDelay } from '../../src/mail/backoff.js';
import {
  escapeHtml,
  renderConfirmation,
  type ConfirmationInput,
} from '../../src/mail/confirmation.template.js';
import { messageIdFor, recipientDomain } from '../../src/mail/dispatcher.js';
import type { OrderItemView, OrderView } from '../../src/modules/orders/index.js';

/** Renders, with the HTML's layout whitespace squashed (it is the formatter's, not content). */
function render(input: ConfirmationInput) {
  const email = renderConfirmation(input);
  const html = email.html.replace(/>\s+/g, '>').replace(/\s+</g, '<').replace(/\s+/g, ' ');
  return { ...email, html };
}

function item(fields: Partial<OrderItemView> = {}): OrderItemView {
  return {
    id: 'item0000000000000000001',
    experience: { id: 'e'.repeat(24) },
    event: { id: 'f'.repeat(24) },
    name: 'Sunset Kayak Tour',
    arrival: '2030-07-04',
    arrivalTime: 1830,
    arrivalDatetime: '2030-07-04T18:30:00-04:00',
    quantity: 3,
    price: 25.5,
    demographics: [],
    lineItems: [
      { object: 'lineitem_demographic', demographic: null, quantity: 3, price: 25.5, amount: 76.5 },
    ],
    amount: 76.5,
    shortCode: 'K7Q2M9',
    status: 200,
    ticketCode: '0'.repeat(32),
    guests: [],
    guestStatus: 'pending',
    ...fields,
  };
}

function order(items: OrderItemView[], fields: Partial<OrderView> = {}): OrderView {
  return {
    object: 'order',
    id: 'a'.repeat(24),
    seller: { id: 'b'.repeat(24) },
    customer: null,
    customerName: 'Jane Doe',
    customerEmail: 'jane@example.com',
    phone: null,
    source: null,
    status: 'confirmed',
    shortCode: 'ABCDEFGH',
    payment: null,
    notes: [],
    adjustments: [],
    holdExpiresAt: null,
    arrival: '2030-07-04',
    amount: items.reduce((sum, i) => sum + (i.status === 200 ? i.amount : 0), 0),
    currency: 'EUR',
    items,
    createdAt: '2030-01-01T00:00:00.000Z',
    updatedAt: '2030-01-01T00:00:00.000Z',
    ...fields,
  };
}

describe('renderConfirmation', () => {
  it('lists every item with its local arrival, quantity and amount, and the total', () => {
    const second = item({
      id: 'item0000000000000000002',
      name: 'Harbour Cruise',
      arrival: '2030-07-05',
      arrivalTime: 900,
      arrivalDatetime: '2030-07-05T09:00:00+02:00',
      quantity: 1,
      amount: 40,
    });
    const email = render({
      order: order([item(), second]),
      timezones: new Map([['item0000000000000000001', 'America/New_York']]),
    });
    // The booking's code, never an item's name (the seller's text): docs/security.md.
    expect(email.subject).toBe('Booking confirmed: ABCDEFGH');
    expect(email.text).toContain(
      [
        '1. Sunset Kayak Tour',
        '   Arrival: Thu 4 Jul 2030, 18:30 (America/New_York)',
        '   Quantity: 3',
        '   Amount: 76.50 EUR',
        '',
        '2. Harbour Cruise',
        // No zone name known: the offset of the booked local time says where it is.
        '   Arrival: Fri 5 Jul 2030, 09:00 (UTC+02:00)',
        '   Quantity: 1',
        '   Amount: 40.00 EUR',
      ].join('\n'),
    );
    expect(email.text).toContain('Total: 116.50 EUR');
    // A zone name that is not known falls back to the offset.
    const unknownZone = render({
      order: order([item()]),
      timezones: new Map([['item0000000000000000001', 'Mars/Olympus']]),
    });
    expect(unknownZone.text).toContain('Arrival: Thu 4 Jul 2030, 18:30 (UTC-04:00)');
    expect(email.html).toContain('Thu 4 Jul 2030, 18:30 (America/New_York)');
    expect(email.html).toContain('<strong>116.50 EUR</strong>');
  });

  it("shows the zone's wall time at the arrival's instant, on either side of a change", () => {
    // Paris falls back at 01:00Z on 2030-10-27: 02:30 is lived at 00:30Z and again at 01:30Z.
    const at = (arrivalDatetime: string) =>
      render({
        order: order([item({ arrivalDatetime })]),
        timezones: new Map([['item0000000000000000001', 'Europe/Paris']]),
      }).text;
    for (const instant of ['2030-10-27T00:30:00Z', '2030-10-27T01:30:00Z'])
      expect(at(instant)).toContain('Arrival: Sun 27 Oct 2030, 02:30 (Europe/Paris)');
    expect(at('2030-10-27T02:30:00Z')).toContain('Arrival: Sun 27 Oct 2030, 03:30 (Europe/Paris)');
  });

  it('gives the short code the guest reads out, never the 24-character order id', () => {
    const email = render({ order: order([item()]) });
    expect(email.text).toContain('Your booking code: ABCDEFGH');
    expect(email.html).toMatch(/Your booking code: ?<strong><code>ABCDEFGH<\/code><\/strong>/);
    expect(email.text).not.toContain('a'.repeat(24));
    expect(email.html).not.toContain('a'.repeat(24));
  });

  it('escapes every value in the HTML part, and keeps the item out of the subject', () => {
    const email = render({
      order: order([item({ name: 'Tour\r\nBcc: x@evil.test <script>' })], {
        customerName: `<img src=x onerror='alert(1)'>`,
      }),
    });
    expect(email.subject).toBe('Booking confirmed: ABCDEFGH');
    expect(email.html).toContain('&lt;img src=x onerror=&#39;alert(1)&#39;&gt;');
    expect(email.html).toContain('Tour Bcc: x@evil.test &lt;script&gt;');
    expect(email.html).not.toMatch(/<img|<script/);
  });

  it('marks canceled items, which the total leaves out', () => {
    const email = render({
      order: order([item(), item({ id: 'item0000000000000000002', status: 700, amount: 10 })]),
    });
    expect(email.text).toContain('2. Sunset Kayak Tour (canceled)');
    expect(email.text).toContain('Total: 76.50 EUR');
  });

  it('shows each item’s guides when given, escaped, and nothing about guides otherwise', () => {
    const plain = render({ order: order([item()]) });
    expect(plain.text).not.toContain('guides');
    expect(plain.html).not.toContain('guides');

    const email = render({
      order: order([item()]),
      guides: new Map([
        [
          'item0000000000000000001',
          [
            {
              name: 'Kim <Lee>',
              phone: '+1 555 0100',
              email: 'kim@example.com',
              bio: 'Paddles & smiles',
            },
            { name: 'Sam', phone: null, email: null, bio: null },
          ],
        ],
      ]),
    });
    expect(email.text).toContain(
      [
        '   Your guides:',
        '     - Kim <Lee> (+1 555 0100, kim@example.com)',
        '       Paddles & smiles',
        '     - Sam',
      ].join('\n'),
    );
    expect(email.html).toContain(
      '<li><strong>Kim &lt;Lee&gt;</strong><br />+1 555 0100<br />kim@example.com<br /><em>Paddles &amp; smiles</em></li>',
    );
    expect(email.html).toContain('<li><strong>Sam</strong></li>');
  });
});

describe('helpers', () => {
  it('escapes the five HTML specials', () => {
    expect(escapeHtml(`<a href="x">Tom & Jerry's</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;',
    );
  });

  it('derives one Message-ID per outbox message from the From domain', () => {
    const id = 'c'.repeat(24);
    expect(messageIdFor(id, 'Bookings <bookings@example.com>')).toBe(`<outbox.${id}@example.com>`);
    expect(messageIdFor(id, 'noreply@mail.example.org')).toBe(`<outbox.${id}@mail.example.org>`);
    expect(recipientDomain('Ann.Private@Customer.Example')).toBe('customer.example');
  });

  it('backs off exponentially, jittered by at most 10 %, capped', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4].map((n) => retryDelay(n, 1000, 3_600_000, mid))).toEqual([
      1000, 2000, 4000, 8000,
    ]);
    expect(retryDelay(1, 1000, 3_600_000, () => 0)).toBe(900);
    expect(retryDelay(1, 1000, 3_600_000, () => 0.999999)).toBe(1100);
    expect(retryDelay(30, 5000, 3_600_000, () => 0.999999)).toBe(3_600_000);
    expect(retryDelay(2000, 5000, 3_600_000, mid)).toBe(3_600_000);
  });
});
