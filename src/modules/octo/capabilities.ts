/**
 * OCTo capabilities: what we offer (`GET /octo/capabilities`) and which of them a request
 * asked for in its `Octo-Capabilities` header. A request gets exactly the capabilities it
 * names and we offer; the response's own `Octo-Capabilities` header lists those, so a reseller
 * sees which of its wishes were granted. Unknown or unoffered ids (octo/content, a typo) are
 * ignored, as OCTo suppliers do: refusing them would break resellers that send one header to
 * every supplier.
 */
import type { OctoCapabilityView } from './octo.schemas.js';

export const OFFERED_CAPABILITIES = ['octo/pricing', 'octo/webhooks'] as const;
export type CapabilityId = (typeof OFFERED_CAPABILITIES)[number];

const DOCS: Record<CapabilityId, string> = {
  'octo/pricing':
    'Retail and net prices in the minor unit on products, availability, bookings and unit items',
  'octo/webhooks': 'booking_update and availability_update notifications, signed, retried',
};

export const capabilitiesOffered = (): OctoCapabilityView[] =>
  OFFERED_CAPABILITIES.map((id) => ({
    id,
    revision: 1,
    required: false,
    dependencies: [],
    docs: DOCS[id],
  }));

/**
 * The offered capabilities a header value asks for, in our order, each once. Ids are compared
 * without case and surrounding space; a missing header asks for none.
 */
export function parseCapabilities(header: string | readonly string[] | undefined): CapabilityId[] {
  const values = header === undefined ? [] : typeof header === 'string' ? [header] : header;
  const asked = new Set(
    values.flatMap((value) => value.split(',')).map((id) => id.trim().toLowerCase()),
  );
  return OFFERED_CAPABILITIES.filter((id) => asked.has(id));
}

/** The response header's value: the capabilities applied (empty when none). */
export const capabilitiesHeader = (applied: readonly CapabilityId[]): string => applied.join(', ');
