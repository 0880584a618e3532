import { type AppLoadContext, redirect } from "@remix-run/node";
import { randomUUID } from "node:crypto";
import { freshHumanCheck, type HumanCheckChallenge } from "~/lib/accounts.server";
import type { ApiResult } from "~/lib/api.server";
import { type CartQuote, cartFor, itemsFromQuote } from "~/lib/cart.server";
import { cookiesOf } from "~/lib/cookies.server";
import { formAction } from "~/lib/form-action.server";
import {
  applyCoupon,
  applyCouponPublic,
  createGuestOrder,
  createOrder,
  listEnabledGateways,
  type PaymentGateway,
} from "~/lib/orders.server";
import { getCurrentUser } from "~/lib/session.server";
import { type SlotCoupon, listSlotCoupons } from "~/lib/slots.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { HUMAN_CHECK_FIELD } from "~/lib/human-check-field";
import { INVALID_COUPON } from "../../contract/order";
import { usdToCents } from "../../contract/money";
import { CART_CHANGED, shownCartDigest } from "../../contract/shown-cart";
import { CHECKOUT_FORM } from "./checkout-form-id";
import { couponSchema, customerCheckoutSchema, guestCheckoutSchema } from "./checkout-schema";

/*
 * The checkout half of the cart panel: what it needs to render (gateways, the applied coupon's price,
 * the guest's human check) and the /cart action's `coupon` and `checkout` intents.
 */

/** Spec section 4: coinbase when it is enabled, else the first enabled gateway. */
export const PREFERRED_METHOD = "coinbase";
/** The visible fields API refusals may be filed under; anything else becomes an error of the whole form. */
const CHECKOUT_FIELDS = ["email", "message", "paymentMethod"] as const;

export type AppliedCoupon = {
  code: string;
  /** The cart's price after the coupon (USD), or null when the coupon no longer applies to this cart. */
  price: number | null;
  problem: string | null;
};

export type CheckoutPanelData = {
  signedIn: boolean;
  gateways: Pick<PaymentGateway, "name" | "label">[];
  defaultMethod: string | null;
  humanCheck: HumanCheckChallenge | null;
  coupon: AppliedCoupon | null;
  /** The signed-in customer's won slots coupons, offered with one click. */
  slotCoupons: SlotCoupon[];
  total: number;
  /** The Idempotency-Key of this render's checkout form: a double submit makes one order. */
  checkoutKey: string;
  /** The digest of the lines, prices, coupon and total shown (ADR 052): the order must be this cart. */
  shownCart: string;
  /** The coupon shown as applied, "" for none (or one that no longer applies): the one the order may use. */
  appliedCoupon: string;
};

/** The applied coupon's code, or "" (cookies.server.ts keeps it signed). */
async function readCouponCode(request: Request, context: AppLoadContext): Promise<string> {
  return (await cookiesOf(context).coupon.read(request)) ?? "";
}

/**
 * The coupon a checkout sends: the cookie's, when the page showed it applied. A coupon shown as not applying (it
 * lapsed, or the cart is under its minimum) is left out, so the order is the full price the page showed; a coupon
 * changed in another tab is sent as none, and the shown-cart digest then refuses the order.
 */
async function couponShown(request: Request, context: AppLoadContext, appliedCoupon: string | undefined) {
  const code = await readCouponCode(request, context);
  return code !== "" && code === (appliedCoupon ?? "") ? code : "";
}

/** A Set-Cookie that stores the coupon, or removes it when `code` is empty. */
function couponHeader(context: AppLoadContext, code: string): Promise<string> {
  const { coupon } = cookiesOf(context);
  return code ? coupon.serialize(code) : coupon.clear();
}

/** Only enabled gateways; balance only for signed-in customers (spec sections 4 and 6). */
function gatewaysFor(gateways: PaymentGateway[], signedIn: boolean) {
  return gateways
    .filter((gateway) => signedIn || gateway.name !== "balance")
    .map(({ name, label }) => ({ name, label }));
}

function defaultMethodOf(gateways: { name: string }[]): string | null {
  return gateways.find((gateway) => gateway.name === PREFERRED_METHOD)?.name ?? gateways[0]?.name ?? null;
}

/** What the checkout part of the panel shows for this cart; null for an empty cart (nothing to check out). */
export async function loadCheckoutPanel(
  context: AppLoadContext,
  request: Request,
  quote: CartQuote,
): Promise<CheckoutPanelData | null> {
  if (quote.cartItems.length === 0) return null;
  const [user, allGateways, code] = await Promise.all([
    getCurrentUser(request, context),
    listEnabledGateways(context),
    readCouponCode(request, context),
  ]);
  const signedIn = user !== null;
  const slotCoupons = signedIn ? await listSlotCoupons(context, request) : [];
  const gateways = gatewaysFor(allGateways, signedIn);

  const humanCheck = signedIn ? null : await freshHumanCheck(context);

  let coupon: AppliedCoupon | null = null;
  if (code) {
    // The public call prices exactly the lines shown, and still counts per-customer coupons for a signed-in request.
    const priced = await applyCouponPublic(context, request, itemsFromQuote(quote), code);
    coupon = priced.ok
      ? { code, price: priced.payload, problem: null }
      : { code, price: null, problem: priced.message };
  }
  const total = coupon?.price ?? quote.cartPrice;
  const appliedCoupon = coupon?.price != null ? coupon.code : "";
  return {
    signedIn,
    gateways,
    defaultMethod: defaultMethodOf(gateways),
    humanCheck,
    coupon,
    slotCoupons,
    total,
    checkoutKey: randomUUID(),
    shownCart: await shownCartDigest({
      lines: quote.cartItems.map((line) => ({
        optionId: line.option._id,
        duration: line.duration,
        quantity: line.quantity,
        priceCents: usdToCents(line.price),
      })),
      coupon: appliedCoupon,
      totalCents: usdToCents(total),
    }),
    appliedCoupon,
  };
}

/**
 * A refused coupon's message. With another coupon already applied it says which one still counts, since the
 * panel goes on showing that one beneath (issue 26): "Coupon NOPE was not applied: Invalid coupon code.
 * WELCOME10 still applies."
 */
export function couponRefusal(refused: string, reason: string, applied: string): string {
  const code = refused.trim().slice(0, 40);
  if (!applied || !code || code.toUpperCase() === applied.toUpperCase()) return reason;
  return `Coupon ${code} was not applied: ${reason.replace(/\.$/, "")}. ${applied} still applies.`;
}

type IntentArgs = { request: Request; context: AppLoadContext; formData: FormData; back: string };

/** intent=coupon: applies (or, when empty, removes) the coupon and comes back with the server's message. */
export async function applyCouponIntent({ request, context, formData, back }: IntentArgs) {
  const applied = await readCouponCode(request, context);
  const entered = String(formData.get("coupon") ?? "");
  return formAction(formData, {
    schema: couponSchema,
    toast: {
      context,
      to: back,
      message: (refusal) => couponRefusal(entered, refusal?.message ?? INVALID_COUPON, applied),
    },
    // One cart per person (ADR 052): a customer's is the server cart, a guest's the cookie.
    call: async ({ coupon }) =>
      (await getCurrentUser(request, context))
        ? applyCoupon(context, request, coupon)
        : applyCouponPublic(context, request, (await cartFor(request, context).cookieLines()).items, coupon),
    done: async ({ message }, { coupon }) =>
      redirectWithSuccess(context, back, message, { headers: { "Set-Cookie": await couponHeader(context, coupon) } }),
  });
}

/** What a refused checkout needs beside its errors. */
export type CheckoutExtra = {
  /** Set when the email already has an account: the panel then offers Sign In. */
  signInSuggested: boolean;
  /**
   * A guest's next human-check challenge: a refused checkout may have spent the last one, and with
   * single fetch a 4xx action answer does not reload the panel's loader data.
   */
  humanCheck: HumanCheckChallenge | null;
};

const findOrderPath = (orderId: string) => `/find-order?${new URLSearchParams({ id: orderId })}`;

/**
 * A checkout the API refused because the cart is not the one the page showed (another tab, a price, the
 * stock or the coupon changed): back to the cart, shown afresh, with the reason. Thrown out of formAction,
 * so the panel's loaders run again whether the post came from a fetcher or a plain form.
 */
async function showCartAgain<T>(context: AppLoadContext, back: string, result: ApiResult<T>): Promise<ApiResult<T>> {
  if (!result.ok && result.errors?.shownCart !== undefined) throw await redirectWithError(context, back, CART_CHANGED);
  return result;
}

/**
 * intent=checkout: the cart the page showed becomes the order, or nothing does. A customer's server cart,
 * a guest's cookie cart (spec section 4, guestCheckout); the form's `shownCart` digest goes with it and the
 * API refuses any other cart. A checkout merges nothing: the two carts meet at sign-in only (ADR 052).
 */
export async function checkoutIntent(args: IntentArgs) {
  const shown = args.formData.get("shownCart");
  // Every checkout form the pages render carries it; a post without it cannot say what was shown.
  if (typeof shown !== "string" || shown === "") return redirectWithError(args.context, args.back, CART_CHANGED);
  const user = await getCurrentUser(args.request, args.context);
  return user ? customerCheckout(args) : guestCheckout(args);
}

async function customerCheckout({ request, context, formData, back }: IntentArgs) {
  const headers = new Headers({ "Set-Cookie": await couponHeader(context, "") });
  return formAction(formData, {
    form: CHECKOUT_FORM,
    schema: customerCheckoutSchema,
    fields: CHECKOUT_FIELDS,
    extra: (): CheckoutExtra => ({ signInSuggested: false, humanCheck: null }),
    call: async ({ paymentMethod, message, idempotencyKey, shownCart, appliedCoupon }) => {
      const coupon = await couponShown(request, context, appliedCoupon);
      const created = await createOrder(
        context,
        request,
        { coupon, paymentMethod, message, shownCart },
        idempotencyKey,
      );
      return showCartAgain(context, back, created);
    },
    done: ({ payload, message }) =>
      payload.paymentUrl
        ? redirect(payload.paymentUrl, { headers })
        : redirectWithSuccess(context, findOrderPath(payload.orderId), message, { headers }),
  });
}

/**
 * Spec section 4 in ONE API call: the account made from the email (generated password, not signed in)
 * and the order of the cookie cart, created together or not at all; then the payment page.
 */
async function guestCheckout({ request, context, formData, back }: IntentArgs) {
  const cart = cartFor(request, context);
  let signInSuggested = false;
  return formAction(formData, {
    form: CHECKOUT_FORM,
    schema: guestCheckoutSchema,
    fields: CHECKOUT_FIELDS,
    honeypot: true,
    extra: async (): Promise<CheckoutExtra> => ({ signInSuggested, humanCheck: await freshHumanCheck(context) }),
    call: async ({
      email,
      paymentMethod,
      message,
      idempotencyKey,
      shownCart,
      appliedCoupon,
      [HUMAN_CHECK_FIELD]: humanCheck,
    }) => {
      const [coupon, { items }] = await Promise.all([couponShown(request, context, appliedCoupon), cart.cookieLines()]);
      const created = await showCartAgain(
        context,
        back,
        await createGuestOrder(
          context,
          { email, cartItems: items, coupon, paymentMethod, message, shownCart, humanCheck },
          idempotencyKey,
        ),
      );
      // The API files a taken email under `email`: never that account's access, the customer signs in.
      if (!created.ok && created.status === 409 && created.errors?.email !== undefined) {
        signInSuggested = true;
        return { ...created, status: 400, errors: undefined };
      }
      return created;
    },
    done: async ({ payload }) => {
      const headers = new Headers();
      headers.append("Set-Cookie", await couponHeader(context, ""));
      headers.append("Set-Cookie", await cart.emptyCookie());
      // Cancelled or expired unpaid, the order gives its lines back to this cookie cart (ADR 019).
      if (payload.paymentUrl) headers.append("Set-Cookie", await cart.rememberUnpaidOrder(payload.orderId));
      return redirect(payload.paymentUrl ?? findOrderPath(payload.orderId), { headers });
    },
  });
}
