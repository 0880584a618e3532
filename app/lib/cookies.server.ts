import { type AppLoadContext, createCookie } from "@remix-run/node";
import { z } from "zod";
import { publicIdField } from "../../contract/ids";
import { CART_LINE_LIMIT, COUPON_MAX_LENGTH, DURATION_MAX_DAYS, QUANTITY_LIMIT } from "../../contract/order";
import type { UiSettings } from "../load-context";

/** What cookies are made from: the signing secrets and whether the site is served over https. */
type CookieSettings = Pick<UiSettings, "sessionSecrets" | "servedOverHttps">;

/*
 * Every cookie the pages set, on Remix's createCookie: Path=/, SameSite=Lax, and Secure whenever the
 * store is served over https (plain-http local runs would lose them otherwise). A signed cookie with
 * a value we did not sign, or any cookie whose value is not in its format, reads as absent.
 */

const DAY_SECONDS = 60 * 60 * 24;
/** The dismissed announcement's key: 16 hex characters of the SHA-256 of its text. */
export const ANNOUNCEMENT_KEY_PATTERN = /^[a-f0-9]{16}$/;
const SESSION_MAX_AGE_SECONDS = 30 * DAY_SECONDS;

/** The guest cart as stored: [optionId, duration, quantity] tuples, so 50 lines stay well under 4 KB. */
const storedCartLines = z
  .array(
    z.tuple([
      publicIdField(),
      z.number().int().positive().max(DURATION_MAX_DAYS),
      z.number().int().min(1).max(QUANTITY_LIMIT),
    ]),
  )
  .max(CART_LINE_LIMIT);
export type StoredCartLines = z.infer<typeof storedCartLines>;

type CookieDefinition<T> = {
  /** What a value must look like to be read back. */
  value: z.ZodType<T>;
  httpOnly: boolean;
  signed: boolean;
  maxAge: number;
};
const cookie = <T>(definition: CookieDefinition<T>) => definition;

const COOKIES = {
  /** The API's bearer token (api.server.ts forwards it); scripts never see it. */
  token: cookie({ value: z.string().min(1), httpOnly: true, signed: false, maxAge: SESSION_MAX_AGE_SECONDS }),
  /** A script-readable "signed in" beside the token, without exposing it; set and cleared with it. */
  footprint: cookie({ value: z.literal("1"), httpOnly: false, signed: false, maxAge: SESSION_MAX_AGE_SECONDS }),
  /** The guest cart: ids, durations and quantities only; prices always come from /v1/cart/quote. */
  cart: cookie({ value: storedCartLines, httpOnly: true, signed: true, maxAge: 30 * DAY_SECONDS }),
  /**
   * The API's device token for this browser (ADR 015): a browser that has signed in to an account before
   * is not held back by failed sign-ins from elsewhere. Kept for a year and through sign-out, since it
   * says "this browser", not "signed in".
   */
  device: cookie({ value: z.string().min(1).max(128), httpOnly: true, signed: true, maxAge: 365 * DAY_SECONDS }),
  /**
   * The guest's order waiting for its payment: once it is cancelled or expires, its lines come back into
   * the cookie cart (ADR 019). A day is longer than any reservation.
   */
  unpaidOrder: cookie({ value: publicIdField(), httpOnly: true, signed: true, maxAge: DAY_SECONDS }),
  /** Lite mode from the footer's switch (issue 18): pages come without any script. */
  lite: cookie({ value: z.literal("1"), httpOnly: true, signed: false, maxAge: 365 * DAY_SECONDS }),
  /** Which announcement the visitor dismissed: a hash of its text, so a new announcement shows again. */
  announcementDismissed: cookie({
    value: z.string().regex(ANNOUNCEMENT_KEY_PATTERN),
    httpOnly: true,
    signed: false,
    maxAge: 30 * DAY_SECONDS,
  }),
  /** The applied coupon's code, never a price: the API prices the cart on every render. */
  coupon: cookie({
    value: z.string().max(COUPON_MAX_LENGTH),
    httpOnly: true,
    signed: true,
    maxAge: DAY_SECONDS,
  }),
};

export type StoreCookie<T> = {
  readonly name: string;
  /** Whether the request carries this cookie at all, whatever its value (a tampered one too). */
  sent(request: Request): boolean;
  /** The value we wrote; undefined when the cookie is absent, tampered with or not in its format. */
  read(request: Request): Promise<T | undefined>;
  /** A Set-Cookie value that stores `value`. */
  serialize(value: T): Promise<string>;
  /** A Set-Cookie value that removes the cookie. */
  clear(): Promise<string>;
};

type Definitions = typeof COOKIES;
export type StoreCookies = {
  [Name in keyof Definitions]: StoreCookie<Definitions[Name] extends CookieDefinition<infer T> ? T : never>;
};

/** Whether the request carries a cookie named `name`, whatever its value. */
export function cookieSent(request: Request, name: string): boolean {
  return (request.headers.get("cookie") ?? "").split(";").some((pair) => pair.trimStart().startsWith(`${name}=`));
}

function storeCookie<T>(name: string, definition: CookieDefinition<T>, settings: CookieSettings): StoreCookie<T> {
  const remixCookie = createCookie(name, {
    path: "/",
    sameSite: "lax",
    httpOnly: definition.httpOnly,
    secure: settings.servedOverHttps,
    maxAge: definition.maxAge,
    secrets: definition.signed ? settings.sessionSecrets : undefined,
  });
  const sent = (request: Request) => cookieSent(request, name);
  return {
    name,
    sent,
    async read(request) {
      if (!sent(request)) return undefined;
      const value: unknown = await remixCookie.parse(request.headers.get("cookie")).catch(() => null);
      const parsed = definition.value.safeParse(value);
      return parsed.success ? parsed.data : undefined;
    },
    serialize: (value) => remixCookie.serialize(value),
    clear: () => remixCookie.serialize("", { maxAge: 0 }),
  };
}

/** The store's cookies, signed with `settings.sessionSecrets` (the first signs, every one verifies). */
export function createStoreCookies(settings: CookieSettings): StoreCookies {
  const entries = Object.entries(COOKIES).map(([name, definition]) => [
    name,
    storeCookie(name, definition as CookieDefinition<unknown>, settings),
  ]);
  return Object.fromEntries(entries) as StoreCookies;
}

/* server.ts builds the settings once, so the cookies are built once per process. */
const cookiesBySettings = new WeakMap<UiSettings, StoreCookies>();

/** The cookies of this request's load context. */
export function cookiesOf(context: AppLoadContext): StoreCookies {
  let cookies = cookiesBySettings.get(context.settings);
  if (!cookies) cookiesBySettings.set(context.settings, (cookies = createStoreCookies(context.settings)));
  return cookies;
}
