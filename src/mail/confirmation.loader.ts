/**
 * Reads what an order confirmation shows, through the modules' facades: the order as the API
 * presents it, the time zone each item was booked in (so a reader sees "Europe/Paris" and
 * not only "+01:00"), and, for experiences whose guide preferences say
 * `includeInConfirmation`, the profile of each guide assigned to the item's event when the
 * email is sent.
 */
import type { Executor } from '../db/unit-of-work.js';
import type { EventsFacade } from '../modules/events/index.js';
import type { ExperiencesFacade } from '../modules/experiences/index.js';
import type { GuidesFacade } from '../modules/guides/index.js';
import type { OrderItemView, OrdersFacade } from '../modules/orders/index.js';
import type { ConfirmationInput, GuideContact } from './confirmation.template.js';

export interface ConfirmationSources {
  orders: OrdersFacade;
  events: EventsFacade;
  experiences: ExperiencesFacade;
  guides: GuidesFacade;
}

export function confirmationLoader(sources: ConfirmationSources) {
  async function guidesOfItems(
    db: Executor,
    items: readonly OrderItemView[],
  ): Promise<Map<string, GuideContact[]>> {
    const experiences = await sources.experiences.findMany(db, [
      ...new Set(items.map((i) => i.experience.id)),
    ]);
    const showing = new Set(
      experiences.filter((x) => x.guide?.includeInConfirmation).map((x) => x.id),
    );
    const shown = items.filter((i) => showing.has(i.experience.id));
    const onEvent = await sources.events.guidesOf(db, [...new Set(shown.map((i) => i.event.id))]);
    const profiles = await sources.guides.findMany(db, [...new Set([...onEvent.values()].flat())]);
    const live = new Map(profiles.filter((p) => !p.deleted).map((p) => [p.id, p]));
    return new Map(
      items.map((item) => [
        item.id,
        (showing.has(item.experience.id) ? (onEvent.get(item.event.id) ?? []) : []).flatMap(
          (id) => {
            const p = live.get(id);
            return p ? [{ name: p.name, phone: p.phone, email: p.email, bio: p.bio }] : [];
          },
        ),
      ]),
    );
  }

  return async function loadConfirmation(
    db: Executor,
    orderId: string,
  ): Promise<ConfirmationInput | null> {
    const found = await sources.orders.find(db, orderId);
    if (!found) return null;
    // The email lists items by departure (then id), whatever their order in the order.
    const items = [...found.order.items].sort(
      (a, b) =>
        Date.parse(a.arrivalDatetime) - Date.parse(b.arrivalDatetime) || a.id.localeCompare(b.id),
    );
    return {
      order: { ...found.order, items },
      timezones: found.timezones,
      guides: await guidesOfItems(db, items),
    };
  };
}

export type LoadConfirmation = ReturnType<typeof confirmationLoader>;
