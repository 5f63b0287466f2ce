/**
 * The checkout widget (`/checkout.js`): an operator pastes the script and a button
 *
 *   <script src="https://HOST/checkout.js" async></script>
 *   <button data-seller="ID" data-experience="ID" data-key="pk_...">Book now</button>
 *
 * and a click opens a dialog over the page: a date with departures, a departure with its
 * seats left, guests (by guest type) with the live quote, the guest's details, then the
 * booking and its short code. It talks to the service that served it with the button's
 * publishable key. Isolated from the page in a shadow root (its CSS cannot leak in or out),
 * no framework, keyboard-first (focus trap, Escape, labels), localized (English, French;
 * dates and money in the browser's locale). A retry after a network failure sends the same
 * Idempotency-Key: it can never book twice.
 */

type Availability = Record<string, Record<string, number | null>>;
interface Demographic {
  id: string;
  label: string;
  price: number;
}
interface Experience {
  id: string;
  name: string;
  currency: string;
  timezone: string;
  demographics: Demographic[];
  price: number;
}
interface Problem {
  code?: string;
  detail?: string;
  seatsLeft?: number;
}

const TEXTS = {
  en: {
    close: 'Close',
    chooseDate: 'Choose a date',
    chooseTime: 'Choose a time',
    noDates: 'No departures in the next weeks.',
    seatsLeft: (n: number | null) => (n === null ? 'seats available' : `${n} seats left`),
    soldOut: 'sold out',
    guests: 'Guests',
    total: 'Total',
    details: 'Your details',
    name: 'Full name',
    email: 'Email',
    phone: 'Phone',
    book: 'Book',
    back: 'Back',
    booking: 'Booking…',
    booked: 'Booked! Your booking code',
    emailSent: (email: string) => `A confirmation is on its way to ${email}.`,
    emailQueued: (email: string) =>
      `Keep this code: the confirmation email to ${email} has not been sent yet.`,
    network: 'The network failed; nothing was booked twice. Try again.',
    retry: 'Try again',
    soldOutWhile: (n: number) =>
      n === 0 ? 'Sold out while you were choosing.' : `Only ${n} seats left now.`,
    invalid: 'Please check:',
    loading: 'Loading…',
  },
  fr: {
    close: 'Fermer',
    chooseDate: 'Choisissez une date',
    chooseTime: 'Choisissez un horaire',
    noDates: 'Aucun départ dans les prochaines semaines.',
    seatsLeft: (n: number | null) =>
      n === null
        ? 'places disponibles'
        : `${n} place${n > 1 ? 's' : ''} restante${n > 1 ? 's' : ''}`,
    soldOut: 'complet',
    guests: 'Participants',
    total: 'Total',
    details: 'Vos coordonnées',
    name: 'Nom complet',
    email: 'E-mail',
    phone: 'Téléphone',
    book: 'Réserver',
    back: 'Retour',
    booking: 'Réservation…',
    booked: 'Réservé ! Votre code de réservation',
    emailSent: (email: string) => `Une confirmation est envoyée à ${email}.`,
    emailQueued: (email: string) =>
      `Gardez ce code : l’e-mail de confirmation à ${email} n’est pas encore parti.`,
    network: 'Le réseau a échoué ; rien n’a été réservé deux fois. Réessayez.',
    retry: 'Réessayer',
    soldOutWhile: (n: number) =>
      n === 0 ? 'Complet pendant votre choix.' : `Plus que ${n} places maintenant.`,
    invalid: 'Veuillez vérifier :',
    loading: 'Chargement…',
  },
};

const STYLE = `
:host{all:initial}
.backdrop{position:fixed;inset:0;background:rgba(0,0,0,.55);display:flex;align-items:center;justify-content:center;z-index:2147483647;font:16px/1.4 system-ui,sans-serif;color:#1a1a1a}
.dialog{background:#fff;border-radius:12px;width:min(440px,100vw);max-height:100vh;overflow:auto;box-sizing:border-box;padding:20px;box-shadow:0 10px 40px rgba(0,0,0,.3)}
h2{font-size:1.2rem;margin:0 0 12px}
h3{font-size:1rem;margin:16px 0 8px}
.close{float:right;background:none;border:0;font-size:1.5rem;line-height:1;cursor:pointer;padding:4px 8px}
.grid{display:flex;flex-wrap:wrap;gap:8px}
button.choice{border:1px solid #888;background:#f6f6f6;border-radius:8px;padding:8px 10px;cursor:pointer;font:inherit;min-width:44px;min-height:44px}
button.choice[aria-pressed=true]{background:#0b57d0;color:#fff;border-color:#0b57d0}
button.choice:disabled{opacity:.45;cursor:not-allowed}
button.primary{background:#0b57d0;color:#fff;border:0;border-radius:8px;padding:12px 18px;font:inherit;cursor:pointer;min-height:44px}
button.secondary{background:none;border:1px solid #888;border-radius:8px;padding:12px 18px;font:inherit;cursor:pointer;min-height:44px}
:focus-visible{outline:3px solid #f4b400;outline-offset:2px}
label{display:block;margin:8px 0 2px}
input{font:inherit;width:100%;box-sizing:border-box;padding:8px;border:1px solid #888;border-radius:6px}
input[type=number]{width:5em}
.row{display:flex;align-items:center;justify-content:space-between;gap:8px}
.total{font-weight:600;margin:12px 0}
.error{background:#fde7e9;border:1px solid #b3261e;color:#8c1d18;border-radius:6px;padding:8px;margin:8px 0}
.actions{display:flex;gap:8px;justify-content:flex-end;margin-top:16px}
.code{font:700 1.6rem/1.2 ui-monospace,monospace;letter-spacing:.1em;margin:8px 0}
`;

/** The element of `tag` with attributes and children (a tiny DOM builder; no framework). */
function h(
  tag: string,
  attributes: Record<string, string | boolean | ((event: Event) => void)> = {},
  ...children: (Node | string | null | false)[]
): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false) element.setAttribute(name, value);
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

/**
 * A random (version 4) UUID for a booking's Idempotency-Key. Not `crypto.randomUUID`: a
 * browser offers it only to secure pages (HTTPS, localhost), and only from Chrome 92,
 * Firefox 95 and Safari 15.4; on an operator's plain-HTTP site "Book" threw and did nothing.
 * `getRandomValues` is in every browser the widget is built for, on any page.
 */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return [
    hex.slice(0, 8),
    hex.slice(8, 12),
    hex.slice(12, 16),
    hex.slice(16, 20),
    hex.slice(20),
  ].join('-');
}

/**
 * What the service that serves this script says of itself, written into the script as it
 * is served (src/checkout-page/): whether it sends email now (`sent`) or keeps it in its
 * outbox until a mail transport is configured (`queued`). Read through JSON.parse so the
 * minifier keeps the placeholder whole; unreplaced (never served so), nothing is promised.
 */
const SETTINGS = ((): { mail: 'sent' | 'queued' } => {
  try {
    return JSON.parse('__BOOKING_CHECKOUT_SETTINGS__') as { mail: 'sent' | 'queued' };
  } catch {
    return { mail: 'queued' };
  }
})();

const script = document.currentScript as HTMLScriptElement | null;
const ORIGIN = script?.src ? new URL(script.src).origin : location.origin;
const LOCALE = navigator.language || 'en';
const T = LOCALE.toLowerCase().startsWith('fr') ? TEXTS.fr : TEXTS.en;
const DAYS_AHEAD = 42;

const isoDate = (date: Date) => date.toISOString().slice(0, 10);

/** The local date and HHMM time now in a time zone (departures before it have started). */
function nowIn(timeZone: string): { date: string; hhmm: number } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date())
      .map((part) => [part.type, part.value]),
  );
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    hhmm: Number(parts.hour) * 100 + Number(parts.minute),
  };
}

/** Departures that have not started yet (the availability lists a whole day's). */
function upcoming(availability: Availability, timeZone: string): Availability {
  const now = nowIn(timeZone);
  const result: Availability = {};
  for (const [date, times] of Object.entries(availability)) {
    if (date < now.date) continue;
    result[date] = Object.fromEntries(
      Object.entries(times).filter(([time]) => date > now.date || Number(time) > now.hhmm),
    );
  }
  return result;
}
const hhmm = (time: string) =>
  `${time.padStart(4, '0').slice(0, 2)}:${time.padStart(4, '0').slice(2)}`;

function open(button: HTMLElement): void {
  const experienceId = button.dataset.experience ?? '';
  const key = button.dataset.key ?? '';
  const host = h('div', { 'data-booking-widget': true });
  const root = host.attachShadow({ mode: 'open' });
  const main = h('div', {
    class: 'dialog',
    role: 'dialog',
    'aria-modal': 'true',
    'aria-labelledby': 'title',
  });
  root.append(h('style', {}, STYLE), h('div', { class: 'backdrop' }, main));
  document.body.append(host);

  const state = {
    experience: undefined as Experience | undefined,
    availability: {} as Availability,
    date: '',
    time: '',
    quantities: new Map<string, number>(),
    amount: undefined as number | undefined,
    idempotencyKey: '',
  };
  const money = (amount: number) =>
    new Intl.NumberFormat(LOCALE, {
      style: 'currency',
      currency: state.experience!.currency,
    }).format(amount);
  const dateLabel = (date: string) =>
    new Intl.DateTimeFormat(LOCALE, {
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      timeZone: 'UTC',
    }).format(new Date(`${date}T00:00:00Z`));

  async function api<T>(
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<T> {
    const response = await fetch(ORIGIN + path, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        'X-Publishable-Key': key,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await response.json().catch(() => ({}))) as T & Problem;
    if (!response.ok)
      throw Object.assign(new Error(json.detail ?? String(response.status)), {
        problem: json,
        status: response.status,
      });
    return json;
  }

  function close(): void {
    document.removeEventListener('keydown', onKey, true);
    host.remove();
    button.focus();
  }
  /** Keyboard: Escape closes; Tab and Shift+Tab stay inside the dialog. */
  function onKey(event: KeyboardEvent): void {
    if (event.key === 'Escape') {
      event.preventDefault();
      close();
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = [...main.querySelectorAll<HTMLElement>('button:not(:disabled), input')];
    if (focusable.length === 0) return;
    const first = focusable[0]!;
    const last = focusable[focusable.length - 1]!;
    const active = root.activeElement;
    if (event.shiftKey && (active === first || !main.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !main.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  }
  document.addEventListener('keydown', onKey, true);

  /** Replaces the dialog's content and puts the focus on its first control (or `focus`). */
  function show(title: string, ...content: (Node | null | false)[]): void {
    main.replaceChildren(
      h('button', { class: 'close', 'aria-label': T.close, onclick: close }, '×'),
      h('h2', { id: 'title' }, title),
      ...content.filter((c): c is Node => Boolean(c)),
    );
    (
      main.querySelector<HTMLElement>('[data-autofocus]') ??
      main.querySelector<HTMLElement>('button.choice, input, button.primary') ??
      main.querySelector<HTMLElement>('button')
    )?.focus();
  }

  const errorBox = (text: string) => h('div', { class: 'error', role: 'alert' }, text);

  /** A refusal that says nothing of whether the order exists: retried with the same key. */
  function unsettled(error: unknown): boolean {
    const { problem, status = 0 } = error as { problem?: Problem; status?: number };
    return (
      status >= 500 ||
      problem?.code === 'idempotency_in_progress' ||
      problem?.code === 'rate_limited'
    );
  }

  function explain(error: unknown): string {
    const problem = (error as { problem?: Problem }).problem;
    if (!problem) return T.network;
    if (problem.code === 'capacity_exceeded' || problem.code === 'not_scheduled')
      return T.soldOutWhile(problem.seatsLeft ?? 0);
    return problem.detail ?? T.network;
  }

  async function start(): Promise<void> {
    show(T.loading);
    try {
      const today = new Date();
      const end = new Date(today.getTime() + DAYS_AHEAD * 86_400_000);
      const [experience, availability] = await Promise.all([
        api<Experience>(`/api/experiences/${experienceId}`),
        api<Availability>(
          `/api/experiences/${experienceId}/availability?start=${isoDate(today)}&end=${isoDate(end)}`,
        ),
      ]);
      state.experience = experience;
      state.availability = upcoming(availability, experience.timezone);
      chooseDate();
    } catch (error) {
      show(
        T.chooseDate,
        errorBox(explain(error)),
        h('button', { class: 'primary', onclick: () => void start() }, T.retry),
      );
    }
  }

  function chooseDate(message?: string): void {
    const dates = Object.keys(state.availability).filter((d) =>
      Object.values(state.availability[d]!).some((seats) => seats === null || seats > 0),
    );
    show(
      state.experience!.name,
      message ? errorBox(message) : null,
      h('h3', {}, T.chooseDate),
      dates.length === 0
        ? h('p', {}, T.noDates)
        : h(
            'div',
            { class: 'grid', role: 'group', 'aria-label': T.chooseDate },
            ...dates.map((date) =>
              h(
                'button',
                {
                  class: 'choice',
                  'aria-pressed': String(date === state.date),
                  'aria-label': dateLabel(date),
                  onclick: () => chooseTime(date),
                },
                new Intl.DateTimeFormat(LOCALE, {
                  day: 'numeric',
                  month: 'short',
                  timeZone: 'UTC',
                }).format(new Date(`${date}T00:00:00Z`)),
              ),
            ),
          ),
    );
  }

  function chooseTime(date: string): void {
    state.date = date;
    const times = Object.entries(state.availability[date] ?? {});
    show(
      dateLabel(date),
      h('h3', {}, T.chooseTime),
      h(
        'div',
        { class: 'grid', role: 'group', 'aria-label': T.chooseTime },
        ...times.map(([time, seats]) =>
          h(
            'button',
            { class: 'choice', disabled: seats === 0, onclick: () => chooseGuests(time) },
            `${hhmm(time)} · ${seats === 0 ? T.soldOut : T.seatsLeft(seats)}`,
          ),
        ),
      ),
      h(
        'div',
        { class: 'actions' },
        h('button', { class: 'secondary', onclick: () => chooseDate() }, T.back),
      ),
    );
  }

  /** The guest types to count: the experience's, or one line at its own price. */
  const guestTypes = (): Demographic[] =>
    state.experience!.demographics.length > 0
      ? state.experience!.demographics
      : [{ id: '', label: T.guests, price: state.experience!.price }];

  function cart() {
    const item: Record<string, unknown> = {
      experience: { id: experienceId },
      arrival: state.date,
      arrivalTime: Number(state.time),
    };
    const lines = guestTypes()
      .map((d) => ({ demographic: { id: d.id }, quantity: state.quantities.get(d.id) ?? 0 }))
      .filter((l) => l.quantity > 0);
    if (guestTypes()[0]!.id === '') item.quantity = lines[0]?.quantity ?? 0;
    else item.demographics = lines;
    return { items: [item] };
  }
  const seatCount = () => [...state.quantities.values()].reduce((a, b) => a + b, 0);

  function chooseGuests(time: string): void {
    state.time = time;
    if (seatCount() === 0) state.quantities.set(guestTypes()[0]!.id, 1);
    const total = h('p', { class: 'total', 'aria-live': 'polite' });
    const problem = h('div', { 'aria-live': 'assertive' });
    const next = h(
      'button',
      { class: 'primary', onclick: () => details() },
      T.details,
    ) as HTMLButtonElement;
    let sequence = 0;
    async function requote(): Promise<void> {
      const mine = ++sequence;
      next.disabled = seatCount() === 0;
      problem.replaceChildren();
      if (seatCount() === 0) {
        total.textContent = '';
        return;
      }
      try {
        const quote = await api<{ amount: number }>('/api/orders/prepare', cart());
        if (mine !== sequence) return;
        state.amount = quote.amount;
        total.textContent = `${T.total}: ${money(quote.amount)}`;
      } catch (error) {
        if (mine !== sequence) return;
        next.disabled = true;
        problem.replaceChildren(errorBox(explain(error)));
      }
    }
    show(
      `${dateLabel(state.date)} · ${hhmm(time)}`,
      h('h3', {}, T.guests),
      ...guestTypes().map((d) => {
        const id = `q-${d.id || 'all'}`;
        const input = h('input', {
          id,
          type: 'number',
          min: '0',
          max: '50',
          inputmode: 'numeric',
          value: String(state.quantities.get(d.id) ?? 0),
          oninput: (event: Event) => {
            const value = Math.max(
              0,
              Math.min(50, Math.floor(Number((event.target as HTMLInputElement).value) || 0)),
            );
            state.quantities.set(d.id, value);
            void requote();
          },
        });
        return h(
          'div',
          { class: 'row' },
          h('label', { for: id }, `${d.label} (${money(d.price)})`),
          input,
        );
      }),
      total,
      problem,
      h(
        'div',
        { class: 'actions' },
        h('button', { class: 'secondary', onclick: () => chooseTime(state.date) }, T.back),
        next,
      ),
    );
    void requote();
  }

  function details(message?: string): void {
    const field = (id: string, label: string, type: string, autocomplete: string) =>
      h(
        'div',
        {},
        h('label', { for: id }, label),
        h('input', { id, name: id, type, autocomplete, required: true }),
      );
    const form = h(
      'form',
      {
        novalidate: true,
        onsubmit: (event: Event) => {
          event.preventDefault();
          void book(form as HTMLFormElement);
        },
      },
      message ? errorBox(message) : null,
      field('name', T.name, 'text', 'name'),
      field('email', T.email, 'email', 'email'),
      field('phone', T.phone, 'tel', 'tel'),
      h('p', { class: 'total' }, `${T.total}: ${money(state.amount ?? 0)}`),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { class: 'secondary', type: 'button', onclick: () => chooseGuests(state.time) },
          T.back,
        ),
        h('button', { class: 'primary', type: 'submit' }, T.book),
      ),
    );
    show(T.details, form);
  }

  async function book(form: HTMLFormElement): Promise<void> {
    const value = (name: string) =>
      (form.elements.namedItem(name) as HTMLInputElement).value.trim();
    const missing = ['name', 'email', 'phone'].filter((name) => value(name) === '');
    if (missing.length > 0) {
      const box = errorBox(
        `${T.invalid} ${missing.map((n) => (T as Record<string, unknown>)[n]).join(', ')}`,
      );
      form.prepend(box);
      (form.elements.namedItem(missing[0]!) as HTMLInputElement).focus();
      return;
    }
    // One key per booking attempt, kept across retries: a retry can never book twice.
    state.idempotencyKey ||= newIdempotencyKey();
    const body = {
      ...cart(),
      customerName: value('name'),
      customerEmail: value('email'),
      phone: value('phone'),
      source: 'checkout',
    };
    show(T.booking);
    try {
      const order = await api<{ shortCode: string }>('/api/orders', body, {
        'Idempotency-Key': state.idempotencyKey,
      });
      state.idempotencyKey = '';
      show(
        T.booked,
        h('p', { class: 'code', 'data-short-code': order.shortCode }, order.shortCode),
        h(
          'p',
          { 'data-confirmation': SETTINGS.mail },
          (SETTINGS.mail === 'sent' ? T.emailSent : T.emailQueued)(body.customerEmail),
        ),
        h(
          'div',
          { class: 'actions' },
          h('button', { class: 'primary', onclick: close, 'data-autofocus': true }, T.close),
        ),
      );
    } catch (error) {
      const problem = (error as { problem?: Problem }).problem;
      if (!problem || unsettled(error)) {
        // The order may or may not exist (the network failed, the first attempt is still
        // being booked, the server was busy or failed): the same key finds out. A new key
        // here could book twice.
        show(
          T.details,
          errorBox(explain(error)),
          h('button', { class: 'primary', onclick: () => void book(form) }, T.retry),
        );
        return;
      }
      state.idempotencyKey = '';
      if (problem.code === 'capacity_exceeded' || problem.code === 'not_scheduled') {
        state.availability = await api<Availability>(
          `/api/experiences/${experienceId}/availability?start=${state.date}&end=${state.date}`,
        ).then(
          (fresh) => ({ ...state.availability, ...fresh }),
          () => state.availability,
        );
        chooseDate(explain(error));
        return;
      }
      details(explain(error));
    }
  }

  void start();
}

// Pages (and tests) can tell the buttons work from here on.
document.documentElement.setAttribute('data-booking-checkout', 'ready');

document.addEventListener('click', (event) => {
  const target = event.target as Element | null;
  const button = target?.closest<HTMLElement>('[data-seller][data-experience][data-key]');
  if (!button) return;
  event.preventDefault();
  open(button);
});
