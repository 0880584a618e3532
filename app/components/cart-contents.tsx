import { Link, useFetcher } from "@remix-run/react";
import { type ReactNode, useRef, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { CartQuote, QuotedLine } from "~/lib/cart.server";
import { quantityBounds } from "~/lib/cart-client";
import { formatUsd } from "~/lib/money";
import { ProductImage } from "./product-image";

const BOX_SUBMIT_DELAY_MS = 500;

function CartLine({ line, redirectTo }: { line: QuotedLine; redirectTo: string }) {
  const hydrated = useHydrated();
  const quantityFetcher = useFetcher();
  const removeFetcher = useFetcher();
  const boxTimer = useRef<ReturnType<typeof setTimeout>>();
  // A typed quantity out of bounds is set to the bound at once, and said: the box and the line always agree.
  const [boundNote, setBoundNote] = useState<string>();
  const { option } = line;
  const { product } = option;
  const bounds = quantityBounds(product, option.availableStock);
  const pendingQuantity = quantityFetcher.formData?.get("quantity");
  const quantity = pendingQuantity ? Number(pendingQuantity) : line.quantity;
  const busy = quantityFetcher.state !== "idle" || removeFetcher.state !== "idle";
  const duration = option.subOptions.find((candidate) => candidate.duration === line.duration);
  const unitPrice = duration?.price ?? 0;

  const stepForm = (label: string, target: number, disabled: boolean, symbol: string) => (
    <quantityFetcher.Form method="post" action="/cart" preventScrollReset>
      <input type="hidden" name="intent" value="update" />
      <input type="hidden" name="optionId" value={option._id} />
      <input type="hidden" name="quantity" value={target} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button
        type="submit"
        aria-label={`${label} quantity of ${product.title} ${option.title}`}
        disabled={disabled || busy}
        className="grid size-8 place-items-center rounded-md border border-slate-300 font-bold hover:bg-slate-100 disabled:cursor-not-allowed disabled:opacity-40"
      >
        {symbol}
      </button>
    </quantityFetcher.Form>
  );

  return (
    <li className={`flex gap-3 py-4 ${busy ? "opacity-60" : ""}`} data-testid="cart-line" aria-busy={busy}>
      <ProductImage
        src={product.picture}
        alt={product.title}
        sizes="6rem"
        className="aspect-video h-auto w-24 shrink-0 self-start rounded-md"
      />
      <div className="flex min-w-0 flex-1 flex-col gap-2">
        <div>
          <p className="font-semibold">{product.title}</p>
          <p className="text-sm text-slate-600">{option.title}</p>
          <p className="text-sm text-slate-600">
            {duration?.title ?? `${line.duration} days`} · {formatUsd(unitPrice)} each ·{" "}
            <span className="font-semibold text-ink" data-testid="line-price">
              {formatUsd(pendingQuantity ? unitPrice * quantity : line.price)}
            </span>
          </p>
          {line.soldOut && <p className="text-sm font-semibold text-red-700">Out of Stock</p>}
        </div>
        {!line.soldOut && (
          <div className="flex flex-wrap items-center gap-2">
            {stepForm("Decrease", quantity - 1, quantity <= bounds.min, "−")}
            {/* noValidate: without JS the server clamps an out-of-bounds quantity and says so. */}
            <quantityFetcher.Form
              method="post"
              action="/cart"
              preventScrollReset
              noValidate
              className="flex items-center gap-1"
            >
              <input type="hidden" name="intent" value="update" />
              <input type="hidden" name="optionId" value={option._id} />
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <input
                // Shows the quantity being sent while it is on its way, then the cart's.
                key={quantity}
                type="number"
                name="quantity"
                defaultValue={quantity}
                min={bounds.min}
                max={bounds.max}
                step={1}
                required
                aria-label={`Quantity of ${product.title} ${option.title}`}
                className="w-16 rounded-md border border-slate-300 px-2 py-1 text-center"
                onChange={(event) => {
                  const box = event.currentTarget;
                  clearTimeout(boxTimer.current);
                  const typed = Number.parseInt(box.value, 10);
                  if (Number.isNaN(typed)) return;
                  const bounded = Math.min(Math.max(typed, bounds.min), bounds.max);
                  setBoundNote(
                    bounded === typed
                      ? undefined
                      : bounded === bounds.max
                        ? `Only ${bounds.max} can be ordered of this plan.`
                        : `At least ${bounds.min} must be ordered of this plan.`,
                  );
                  if (bounded !== typed) box.value = String(bounded);
                  // The number is taken now: an answer arriving meanwhile may redraw the box.
                  const update = { intent: "update", optionId: option._id, quantity: String(bounded), redirectTo };
                  boxTimer.current = setTimeout(
                    () => quantityFetcher.submit(update, { method: "post", action: "/cart", preventScrollReset: true }),
                    BOX_SUBMIT_DELAY_MS,
                  );
                }}
              />
              {!hydrated && (
                <button
                  type="submit"
                  className="rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100"
                >
                  Update
                </button>
              )}
            </quantityFetcher.Form>
            {stepForm("Increase", quantity + 1, quantity >= bounds.max, "+")}
          </div>
        )}
        {boundNote && (
          <p role="status" className="text-sm font-semibold text-amber-800">
            {boundNote}
          </p>
        )}
        <removeFetcher.Form method="post" action="/cart" preventScrollReset>
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="optionId" value={option._id} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <button type="submit" disabled={busy} className="text-sm text-red-700 underline hover:text-red-900">
            Remove Item
            <span className="sr-only">
              {" "}
              {product.title} {option.title}
            </span>
          </button>
        </removeFetcher.Form>
      </div>
    </li>
  );
}

/**
 * The cart: subtotal, Clear Cart and the lines, each control its own small form posting to /cart.
 * `checkout` is the checkout part (coupon, email, message, payment method, Checkout button).
 */
export function CartContents({
  quote,
  redirectTo,
  checkout,
}: {
  quote: CartQuote | null;
  redirectTo: string;
  checkout?: ReactNode;
}) {
  const clearFetcher = useFetcher();
  if (!quote) {
    return <p role="alert">We could not load your cart. Please refresh the page.</p>;
  }
  if (quote.cartItems.length === 0) {
    return (
      <div className="flex flex-col items-start gap-3">
        <p>Your cart is empty.</p>
        <Link to="/shop" className="font-semibold text-brand-700 underline">
          Browse the shop
        </Link>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <div className="flex items-center justify-between gap-4">
        <p className="text-lg">
          Subtotal: <strong data-testid="cart-subtotal">{formatUsd(quote.cartPrice)}</strong>
        </p>
        <clearFetcher.Form method="post" action="/cart" preventScrollReset>
          <input type="hidden" name="intent" value="clear" />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <button
            type="submit"
            disabled={clearFetcher.state !== "idle"}
            className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium hover:bg-slate-100"
          >
            Clear Cart
          </button>
        </clearFetcher.Form>
      </div>
      <ul className="divide-y divide-slate-200" aria-label="Cart items">
        {quote.cartItems.map((line) => (
          <CartLine key={line.option._id} line={line} redirectTo={redirectTo} />
        ))}
      </ul>
      {checkout}
    </div>
  );
}
