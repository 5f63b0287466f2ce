/**
 * The event catalogue of docs/webhooks.md, generated from the object schemas: for each
 * event name, the object it carries and an example payload built from that object's schema
 * (so the example cannot drift from what the API shows). `npm run docs` rewrites it; a test
 * checks it is current.
 */
import type { TSchema } from 'typebox';
import { Event } from '../src/modules/events/index.js';
import { Experience } from '../src/modules/experiences/index.js';
import { Guide, GuideSchedule } from '../src/modules/guides/index.js';
import { Order } from '../src/modules/orders/index.js';
import { Metadata, User } from '../src/modules/users/index.js';
import { Paging } from '../src/http/schemas.js';
import { Schedule } from '../src/modules/shared/index.js';
import { EVENT_NAMES, type EventName } from '../src/outbox/index.js';

interface Node {
  $id?: string;
  $ref?: string;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: Node[];
  format?: string;
  pattern?: string;
  properties?: Record<string, Node>;
  items?: Node;
  minimum?: number;
}

const NAMED: Record<string, TSchema> = Object.fromEntries(
  [Event, Experience, Guide, GuideSchedule, Metadata, Order, User, Paging, Schedule].map((s) => [
    (s as unknown as { $id: string }).$id,
    s,
  ]),
);

const SAMPLE_ID = '6560a1b2c3d4e5f60718293a';
const SAMPLE_TEXT: Record<string, string> = {
  currency: 'EUR',
  timezone: 'Europe/Paris',
  customerName: 'Ann Walker',
  name: 'Harbour Kayak',
  title: 'Harbour Kayak',
  start: '2030-06-01T09:00:00+02:00',
  end: '2030-06-01T10:30:00+02:00',
};

/** A plausible value for a schema node: its constant, first choice, or a typed sample. */
function example(node: Node, key = ''): unknown {
  if (node.$ref) {
    const named = NAMED[node.$ref.replace(/#$/, '')];
    if (!named) throw new Error(`webhook reference: add the schema ${node.$ref} to NAMED`);
    return example(named, key);
  }
  if (node.const !== undefined) return node.const;
  if (node.enum) return node.enum[0];
  if (node.anyOf) {
    const choices = node.anyOf.filter((n) => n.type !== 'null');
    return choices.length > 0 ? example(choices[0]!, key) : null;
  }
  switch (node.type) {
    case 'object': {
      if (!node.properties) return {};
      return Object.fromEntries(
        Object.entries(node.properties).map(([name, child]) => [name, example(child, name)]),
      );
    }
    case 'array':
      return node.items ? [example(node.items, key)] : [];
    case 'integer':
      return node.minimum !== undefined && node.minimum > 1 ? node.minimum : 2;
    case 'number':
      return 25.5;
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string':
      if (node.format === 'date-time') return '2030-06-01T09:00:00.000Z';
      if (node.format === 'date') return '2030-06-01';
      if (node.format === 'email') return 'ann@example.com';
      if (node.pattern?.includes('0-9a-f')) return SAMPLE_ID;
      if (key in SAMPLE_TEXT) return SAMPLE_TEXT[key];
      return key === 'id' ? SAMPLE_ID : `${key || 'text'}`;
    default:
      return null;
  }
}

const OBJECTS: Record<string, TSchema> = {
  order: Order,
  experience: Experience,
  event: Event,
  guide: Guide,
  user: User,
};

const WHEN: Record<EventName, string> = {
  'order.create': 'an order is booked',
  'order.update':
    'an order is changed with `PUT`/`PATCH /api/orders/{id}` (customer details, notes, items moved, resized, added, dropped, confirmed), or a hold of some of its items expires',
  'order.cancel':
    'an order is canceled (its items too; the seats go back), or its last held items expire',
  'experience.create': 'an experience is created',
  'experience.update': 'an experience or its guide preferences change',
  'experience.delete': 'an experience is deleted (the object as it was)',
  'event.update':
    'an event is created or changed with `POST /api/events`, a booking, a change of an order, a cancellation or an expired hold changes its seats, or a guide is assigned or removed',
  'guide.create': 'a guide profile is created',
  'guide.update': 'a guide profile or its schedules change',
  'guide.delete': 'a guide profile is deleted (the object as it was)',
  'user.update': "the user's metadata changes (heard by the user's own hooks)",
};

const AUDIT_EXAMPLE: Partial<Record<EventName, Record<string, { old: unknown; new: unknown }>>> = {
  'order.cancel': { status: { old: 'confirmed', new: 'canceled' } },
  'experience.update': { name: { old: 'Harbour Kayak', new: 'Sunset Kayak' } },
  'event.update': { guides: { old: [], new: [SAMPLE_ID] } },
  'guide.update': { phone: { old: null, new: '+33 6 12 34 56 78' } },
  'user.update': { metadata: { old: {}, new: { crm: 'A-42' } } },
};

export function renderEventCatalogue(): string {
  const sections = EVENT_NAMES.map((name) => {
    const object = name.split('.')[0]!;
    const schema = OBJECTS[object]!;
    const audit = AUDIT_EXAMPLE[name];
    // The object after the change: the audit's new values in it.
    const data = example(schema) as Record<string, unknown>;
    for (const [field, change] of Object.entries(audit ?? {})) data[field] = change.new;
    const payload = {
      eventName: name,
      data,
      ...(audit ? { audit } : {}),
      actor: { id: SAMPLE_ID },
    };
    return [
      `### \`${name}\``,
      '',
      `When ${WHEN[name]}. \`data\` is the ${(schema as unknown as { $id: string }).$id} object.`,
      '',
      '```json',
      JSON.stringify(payload, null, 2),
      '```',
      '',
    ].join('\n');
  });
  return [
    '## Event catalogue',
    '',
    '<!-- generated by `npm run docs`: do not edit -->',
    '',
    ...sections,
  ].join('\n');
}

/** The document with its `## Event catalogue` section (the last one) regenerated. */
export function withEventCatalogue(document: string): string {
  const at = document.indexOf('## Event catalogue');
  if (at < 0) throw new Error('docs/webhooks.md has no "## Event catalogue" section');
  return `${document.slice(0, at)}${renderEventCatalogue()}`;
}
