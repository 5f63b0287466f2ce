/**
 * The ordered list of migrations. Forward-only: a migration that has shipped is never
 * edited; a change is a new numbered file added here.
 */
import type { Migration } from 'kysely';
import * as m0001 from './0001_users.js';
import * as m0002 from './0002_booking.js';
import * as m0003 from './0003_delegates_idempotency.js';
import * as m0004 from './0004_outbox.js';
import * as m0005 from './0005_guides.js';
import * as m0008 from './0008_experience_events_cascade.js';
import * as m0009 from './0009_unicode_fold_indexes.js';
import * as m0010 from './0010_delegate_invitations.js';
import * as m0011 from './0011_idempotency_scopes.js';
import * as m0012 from './0012_outbox_sender.js';
import * as m0013 from './0013_domain_events_webhooks.js';
import * as m0014 from './0014_order_flow.js';
import * as m0015 from './0015_event_operations.js';
import * as m0016 from './0016_publishable_keys.js';
import * as m0017 from './0017_invitation_tokens.js';
import * as m0018 from './0018_creation_order.js';
import * as m0019 from './0019_guests_checkins.js';
import * as m0020 from './0020_resellers_octo.js';
import * as m0021 from './0021_resources.js';
import * as m0022 from './0022_hook_hears_after.js';
import * as m0023 from './0023_event_local_times.js';
import * as m0024 from './0024_hook_private_events.js';
import * as m0025 from './0025_made_by.js';
import * as m0026 from './0026_invitation_counts.js';
import * as m0027 from './0027_retention.js';
import * as m0028 from './0028_sortable_text_collation.js';
import * as m0029 from './0029_events_opened_by_hand.js';
import * as m0030 from './0030_webhook_deliveries_hook_due.js';

export const migrations: Record<string, Migration> = {
  '0001_users': m0001,
  '0002_booking': m0002,
  '0003_delegates_idempotency': m0003,
  '0004_outbox': m0004,
  '0005_guides': m0005,
  '0008_experience_events_cascade': m0008,
  '0009_unicode_fold_indexes': m0009,
  '0010_delegate_invitations': m0010,
  '0011_idempotency_scopes': m0011,
  '0012_outbox_sender': m0012,
  '0013_domain_events_webhooks': m0013,
  '0014_order_flow': m0014,
  '0015_event_operations': m0015,
  '0016_publishable_keys': m0016,
  '0017_invitation_tokens': m0017,
  '0018_creation_order': m0018,
  '0019_guests_checkins': m0019,
  '0020_resellers_octo': m0020,
  '0021_resources': m0021,
  '0022_hook_hears_after': m0022,
  '0023_event_local_times': m0023,
  '0024_hook_private_events': m0024,
  '0025_made_by': m0025,
  '0026_invitation_counts': m0026,
  '0027_retention': m0027,
  '0028_sortable_text_collation': m0028,
  '0029_events_opened_by_hand': m0029,
  '0030_webhook_deliveries_hook_due': m0030,
};
