import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { safeRedirect } from "remix-utils/safe-redirect";
import { PUBLIC_ID_PATTERN } from "../../contract/browser/ids";
import type { z } from "zod";
import { CartContents } from "~/components/cart-contents";
import { applyCouponIntent, checkoutIntent, loadCheckoutPanel } from "~/lib/checkout.server";
import { CheckoutSection } from "~/components/checkout/checkout-section";
import { formAction } from "~/lib/form-action.server";
import { type CartChange, cartFor } from "~/lib/cart.server";
import { withCartPanel } from "~/lib/cart-client";
import { addToCartSchema, clearCartSchema, removeCartLineSchema, updateCartLineSchema } from "~/lib/cart-forms";
import { redirectWithError, redirectWithInfo, redirectWithSuccess } from "~/lib/toast.server";
import { pageMeta } from "~/components/legal/page-meta";

export const meta: MetaFunction = () =>
  pageMeta({
    title: "Your Cart | Store",
    description:
      "Review the plans in your cart, change quantities, add a coupon and check out as a guest or with your account.",
  });

const CART_PAGE = "/cart";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { quote, headers } = await cartFor(request, context).read();
  const checkout = await loadCheckoutPanel(context, request, quote);
  return data({ quote, checkout }, { headers });
}

/** Where a cart form returns: its redirectTo, else the page it came from with the panel open, else /cart. */
function returnAddress(request: Request, formData: FormData): string {
  const requested = formData.get("redirectTo");
  if (typeof requested === "string" && requested) return safeRedirect(requested, CART_PAGE);
  const referer = request.headers.get("referer");
  const from = referer && URL.canParse(referer) ? new URL(referer) : undefined;
  if (from?.origin === new URL(request.url).origin) {
    return from.pathname === CART_PAGE ? CART_PAGE : withCartPanel(from.pathname + from.search, true);
  }
  return CART_PAGE;
}

/** A refused add goes back to the product (errorRedirectTo) showing the plan that was checked, to be corrected. */
function productAfterRefusal(formData: FormData, fallback: string): string {
  const requested = formData.get("errorRedirectTo");
  if (typeof requested !== "string" || !requested) return fallback;
  const url = new URL(safeRedirect(requested, fallback), "http://local");
  const optionId = formData.get("optionId");
  if (typeof optionId === "string" && PUBLIC_ID_PATTERN.test(optionId)) {
    url.searchParams.delete("optionId");
    url.searchParams.set("option", optionId);
  }
  return url.pathname + url.search;
}

/**
 * The cart's answer as formAction's yes: a change the cart refused still sets its cookies, so its refusal rides
 * in the payload and each form tells it in its own toast.
 */
const cartChanged = (change: CartChange) => ({ ok: true as const, status: 200, message: "", payload: change });

export async function action({ request, context }: ActionFunctionArgs) {
  // A body that is not a form is bad input like any other: a toast, never a 500.
  const formData = await request.formData().catch(() => new FormData());
  const back = returnAddress(request, formData);
  const cart = cartFor(request, context);

  /** Panel edits replace the history entry: with JS each click is a fetcher whose redirect would otherwise add one. */
  async function afterEdit(change: CartChange) {
    if (change.refusal) return redirectWithError(context, back, change.refusal, { headers: change.headers });
    if (change.notice) return redirectWithInfo(context, back, change.notice, { headers: change.headers });
    change.headers.set("X-Remix-Replace", "true");
    return redirect(back, { headers: change.headers });
  }

  /** A panel edit: its refusals are a toast on the page it came from. */
  function edit<Schema extends z.ZodTypeAny>(schema: Schema, change: (value: z.output<Schema>) => Promise<CartChange>) {
    return formAction(formData, {
      schema,
      toast: { context, to: back },
      call: async (value) => cartChanged(await change(value)),
      done: ({ payload }) => afterEdit(payload),
    });
  }

  switch (formData.get("intent")) {
    case "add": {
      const refusedTo = productAfterRefusal(formData, back);
      return formAction(formData, {
        schema: addToCartSchema,
        toast: { context, to: refusedTo },
        call: async ({ optionId, duration, quantity }) => cartChanged(await cart.add({ optionId, duration, quantity })),
        done: ({ payload: { refusal, notice, headers } }) => {
          if (refusal) return redirectWithError(context, refusedTo, refusal, { headers });
          if (notice) return redirectWithInfo(context, back, notice, { headers });
          return redirectWithSuccess(context, back, "Product added to cart", { headers });
        },
      });
    }
    case "update":
      return edit(updateCartLineSchema, ({ optionId, quantity }) => cart.update({ optionId, quantity }));
    case "remove":
      return edit(removeCartLineSchema, ({ optionId }) => cart.remove(optionId));
    case "clear":
      return edit(clearCartSchema, () => cart.clear());
    case "coupon":
      return applyCouponIntent({ request, context, formData, back });
    case "checkout":
      return checkoutIntent({ request, context, formData, back });
    default:
      return redirectWithError(context, back, "Unknown cart action");
  }
}

export default function CartPage() {
  const { quote, checkout } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="mb-6 text-3xl font-bold">Your Cart</h1>
      <CartContents
        quote={quote}
        redirectTo={CART_PAGE}
        checkout={checkout && <CheckoutSection panel={checkout} cartPrice={quote.cartPrice} redirectTo={CART_PAGE} />}
      />
    </div>
  );
}
