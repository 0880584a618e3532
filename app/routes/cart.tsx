import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { safeRedirect } from "remix-utils/safe-redirect";
import { CartContents } from "~/components/cart-contents";
import {
  applyCouponIntent,
  type CheckoutRefusal,
  checkoutIntent,
  loadCheckoutPanel,
} from "~/components/checkout/checkout.server";
import { CheckoutSection } from "~/components/checkout/checkout-section";
import {
  CART_LINE_LIMIT,
  type CartItem,
  changeServerCart,
  itemsFromQuote,
  loadCart,
  mergeCartItem,
  quoteCart,
  readCartItems,
  serializeCart,
} from "~/lib/cart.server";
import { withCartPanel } from "~/lib/cart-client";
import { addToCartSchema, clearCartSchema, removeCartLineSchema, updateCartLineSchema } from "~/lib/cart-forms";
import { sessionToken } from "~/lib/session.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { pageMeta } from "~/components/legal/page-meta";

export const meta: MetaFunction = () =>
  pageMeta({
    title: "Your Cart | Store",
    description:
      "Review the plans in your cart, change quantities, add a coupon and check out as a guest or with your account.",
  });

const CART_PAGE = "/cart";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { quote, setCookie } = await loadCart(context, request, !!sessionToken(request));
  const checkout = await loadCheckoutPanel(context, request, quote);
  return data({ quote, checkout }, setCookie ? { headers: { "Set-Cookie": setCookie } } : undefined);
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

const schemaByIntent = {
  add: addToCartSchema,
  update: updateCartLineSchema,
  remove: removeCartLineSchema,
  clear: clearCartSchema,
};

export async function action({ request, context }: ActionFunctionArgs) {
  // A body that is not a form is bad input like any other: a toast, never a 500.
  const formData = await request.formData().catch(() => new FormData());
  const back = returnAddress(request, formData);
  const intent = formData.get("intent");
  if (intent === "coupon") return applyCouponIntent({ request, context, formData, back });
  if (intent === "checkout") return checkoutIntent({ request, context, formData, back });
  const schema =
    typeof intent === "string" && Object.hasOwn(schemaByIntent, intent)
      ? schemaByIntent[intent as keyof typeof schemaByIntent]
      : undefined;
  if (!schema) return redirectWithError(back, "Unknown cart action");

  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") {
    const firstError = Object.values(submission.error ?? {}).flat()[0];
    return redirectWithError(back, firstError ?? "Please check the form");
  }
  const command = submission.value;
  if (sessionToken(request)) {
    // A signed-in customer's cart is the server's; the API applies the same bounds and stock rules.
    const answer = await changeServerCart(context, request, command);
    if (!answer.ok) return redirectWithError(back, answer.message);
    if (command.intent === "add") return redirectWithSuccess(back, "Product added to cart");
    return redirect(back, { headers: { "X-Remix-Replace": "true" } });
  }
  const { items } = await readCartItems(request);

  if (command.intent === "add") {
    const added: CartItem = { optionId: command.optionId, duration: command.duration, quantity: command.quantity };
    const merged = mergeCartItem(items, added);
    if (merged.length > CART_LINE_LIMIT) {
      return redirectWithError(back, `Your cart holds at most ${CART_LINE_LIMIT} items`);
    }
    const quote = await quoteCart(context, merged);
    if (quote.dropped.includes(added.optionId)) {
      const kept = itemsFromQuote(quote);
      return redirectWithError(back, "This option is no longer available", {
        headers: { "Set-Cookie": await serializeCart(kept) },
      });
    }
    const line = quote.cartItems.find((candidate) => candidate.option._id === added.optionId);
    if (line?.soldOut) {
      const wasInCart = items.some((item) => item.optionId === added.optionId);
      const kept = itemsFromQuote(quote).filter((item) => wasInCart || item.optionId !== added.optionId);
      return redirectWithError(back, "This option is out of stock", {
        headers: { "Set-Cookie": await serializeCart(kept) },
      });
    }
    return redirectWithSuccess(back, "Product added to cart", {
      headers: { "Set-Cookie": await serializeCart(itemsFromQuote(quote)) },
    });
  }

  if (command.intent === "update") {
    // The quote clamps the quantity into the line's bounds.
    const updated = items.map((item) =>
      item.optionId === command.optionId ? { ...item, quantity: command.quantity } : item,
    );
    const quote = await quoteCart(context, updated);
    return redirectAfterEdit(back, await serializeCart(itemsFromQuote(quote)));
  }

  if (command.intent === "remove") {
    return redirectAfterEdit(back, await serializeCart(items.filter((item) => item.optionId !== command.optionId)));
  }

  return redirectAfterEdit(back, await serializeCart([]));
}

/** Panel edits replace the history entry: with JS each click is a fetcher whose redirect would otherwise add one. */
function redirectAfterEdit(to: string, setCookie: string) {
  return redirect(to, { headers: { "Set-Cookie": setCookie, "X-Remix-Replace": "true" } });
}

export default function CartPage() {
  const { quote, checkout } = useLoaderData<typeof loader>();
  // A checkout refused without JS lands here, on the /cart page, with its errors.
  const refusal = useActionData<CheckoutRefusal>();
  return (
    <div className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="mb-6 text-3xl font-bold">Your Cart</h1>
      <CartContents
        quote={quote}
        redirectTo={CART_PAGE}
        checkout={
          checkout && (
            <CheckoutSection panel={checkout} cartPrice={quote.cartPrice} redirectTo={CART_PAGE} refusal={refusal} />
          )
        }
      />
    </div>
  );
}
