/**
 * The manifest as CSV (RFC 4180, one row per guest) and as a printable HTML page for the
 * dock. Both carry what customers typed (names, notes), so both are escaped for where they
 * are read: every CSV cell is quoted (quotes doubled), and a cell a spreadsheet would run as
 * a formula (starting with = + - @, a tab or a carriage return) is prefixed with `'`
 * (OWASP's CSV injection advice); every HTML value is escaped, and the page runs no script
 * and loads nothing: its one style block is allowed by hash in its own strict CSP. A page of
 * a manifest too big for one response says so above its table (the CSV: in its Link header).
 */
import { createHash } from 'node:crypto';
import type { ManifestView } from './checkins.schemas.js';

const STATUS_LABEL: Record<string, string> = {
  pending: 'expected',
  arrived: 'arrived',
  no_show: 'no show',
};

/** A CSV cell: formula-looking text defused, then quoted (RFC 4180). */
function cell(value: string | number | null): string {
  let text = value === null ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

const CSV_COLUMNS = [
  'departure',
  'name',
  'guest type',
  'order code',
  'ticket code',
  'status',
  'checked in at',
  'notes',
];

/** One row per live guest, after a header row; CRLF line ends; UTF-8 with a BOM for Excel. */
export function manifestCsv(manifest: ManifestView): string {
  const rows = manifest.guests.map((g) =>
    [
      manifest.event.start,
      g.name,
      g.guestType,
      g.shortCode,
      g.ticketCode,
      g.guestStatus,
      g.checkedInAt,
      g.notes.join(' | '),
    ].map(cell),
  );
  return '\ufeff' + [CSV_COLUMNS.map(cell), ...rows].map((r) => r.join(',') + '\r\n').join('');
}

/** Text for HTML: every character that could open markup or end an attribute, as a reference. */
const text = (value: string | number | null): string =>
  value === null ? '' : String(value).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5rem; color: #111; }
h1 { font-size: 1.4rem; margin: 0 0 .25rem; }
p.when { margin: 0 0 1rem; color: #444; }
ul.counts { display: flex; gap: 1.5rem; list-style: none; padding: 0; margin: 0 0 1rem; }
ul.counts strong { font-size: 1.2rem; }
table { border-collapse: collapse; width: 100%; }
th, td { border: 1px solid #999; padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #eee; }
td.tick { width: 1.5rem; }
p.part { font-weight: bold; }
td.code { font-family: ui-monospace, monospace; font-size: .85rem; }
tr.arrived td { background: #e6f4e6; }
tr.no_show td { color: #777; text-decoration: line-through; }
@media print { body { margin: 0; } tr { break-inside: avoid; } th { background: none; } }
`;

/** The page's policy: nothing loads, nothing runs; its style block by hash. */
export const MANIFEST_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256')
  .update(STYLE)
  .digest('base64')}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

/** "Sunday 2030-07-14, 09:00 to 10:30": the local wall clock its ISO strings carry. */
function when(start: string, end: string): string {
  const weekday = new Date(`${start.slice(0, 10)}T12:00:00Z`).toLocaleDateString('en-GB', {
    weekday: 'long',
    timeZone: 'UTC',
  });
  const endDay = end.slice(0, 10) === start.slice(0, 10) ? '' : `${end.slice(0, 10)} `;
  return `${weekday} ${start.slice(0, 10)}, ${start.slice(11, 16)} to ${endDay}${end.slice(11, 16)}`;
}

/**
 * What a page of a manifest too big for one response says above its table: that it is part
 * of the list, and where the rest is, so a printed page never passes for the whole boat.
 */
function part(manifest: ManifestView): string {
  const { guests, counts, paging } = manifest;
  if (guests.length >= counts.booked && !paging.next) return '';
  const next = paging.next
    ? ` <a href="${text(`${paging.next}&format=html`)}">The next page</a> lists more.`
    : ' This is the last page.';
  return `<p class="part">This page lists ${guests.length} of the ${counts.booked} guests.${next}</p>\n`;
}

export function manifestHtml(manifest: ManifestView): string {
  const { event, counts } = manifest;
  const guides = manifest.guides
    .map((g) => `<li>${text(g.name)}${g.phone ? ` (${text(g.phone)})` : ''}</li>`)
    .join('');
  const rows = manifest.guests
    .map(
      (g) => `<tr class="${text(g.guestStatus)}">
<td class="tick">${g.guestStatus === 'arrived' ? '&#10003;' : ''}</td><td>${text(g.name)}</td>
<td>${text(g.guestType)}</td><td class="code">${text(g.shortCode)}</td>
<td class="code">${text(g.ticketCode)}</td><td>${text(STATUS_LABEL[g.guestStatus] ?? g.guestStatus)}</td>
<td>${g.notes.map(text).join('<br>')}</td></tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Manifest: ${text(event.title)} ${text(event.start)}</title>
<style>${STYLE}</style></head>
<body>
<h1>${text(event.title)}</h1>
<p class="when">${text(when(event.start, event.end))} (${text(manifest.timezone)})</p>
<h2>Guides</h2>
${guides ? `<ul class="guides">${guides}</ul>` : '<p>No guide assigned.</p>'}
<ul class="counts">
<li>Booked <strong>${counts.booked}</strong></li><li>Arrived <strong>${counts.arrived}</strong></li>
<li>No show <strong>${counts.noShow}</strong></li><li>Expected <strong>${counts.pending}</strong></li>
</ul>
${part(manifest)}<table>
<thead><tr><th></th><th>Name</th><th>Guest type</th><th>Order</th><th>Ticket</th><th>Status</th><th>Notes</th></tr></thead>
<tbody>
${rows}
</tbody></table>
</body></html>
`;
}
