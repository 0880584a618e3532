import { Link, useFetcher } from "@remix-run/react";
import { COUPON_MAX_LENGTH } from "../../../contract/order";
import { formatUsd } from "~/lib/money";
import { FORM_CONSTRAINTS } from "~/lib/checkout-schema.constraints";
import { getFormProps, getTextareaProps, useServerForm } from "~/lib/server-form";
import { ErrorList, FormErrors, TextField } from "../account/form-fields";
import { HumanCheck } from "../human-check";
import { SlotCouponPicker } from "../slots/slot-coupons";
import type { CheckoutExtra, CheckoutPanelData } from "~/lib/checkout.server";
import { CHECKOUT_FORM } from "~/lib/checkout-form-id";
import { type FormReply, useFormReply } from "~/lib/form-reply";
import type { guestCheckoutSchema } from "~/lib/checkout-schema";
import type { z } from "zod";

type Props = {
  panel: CheckoutPanelData;
  /** The cart's price without a coupon (USD). */
  cartPrice: number;
  /** Where the panel's forms come back to without JS. */
  redirectTo: string;
};

function CouponForm({ panel, cartPrice, redirectTo }: Props) {
  const fetcher = useFetcher();
  const busy = fetcher.state !== "idle";
  const applied = panel.coupon;
  return (
    <fetcher.Form method="post" action="/cart" preventScrollReset className="flex flex-col gap-1">
      <input type="hidden" name="intent" value="coupon" />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <label htmlFor="coupon-code" className="text-sm font-semibold">
        Coupon Code
      </label>
      <div className="flex gap-2">
        <input
          id="coupon-code"
          key={applied?.code ?? ""}
          name="coupon"
          type="text"
          maxLength={COUPON_MAX_LENGTH}
          defaultValue={applied?.code ?? ""}
          autoComplete="off"
          spellCheck={false}
          className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2 uppercase"
        />
        <button
          type="submit"
          aria-disabled={busy}
          aria-label="Apply coupon"
          className="rounded-md bg-slate-800 px-4 font-bold text-white hover:bg-slate-700 aria-disabled:opacity-60"
        >
          <span aria-hidden="true">→</span>
        </button>
      </div>
      {applied && applied.price !== null && (
        <p className="text-sm text-emerald-800" data-testid="coupon-applied">
          Coupon <strong>{applied.code}</strong> applied: {formatUsd(applied.price)} instead of {formatUsd(cartPrice)}
        </p>
      )}
      {applied?.problem && (
        <p className="text-sm font-semibold text-red-700">
          Coupon {applied.code}: {applied.problem}
        </p>
      )}
    </fetcher.Form>
  );
}

/**
 * The checkout part of the cart panel (spec section 2): coupon, email for guests, message to the admin,
 * payment method tiles and the Checkout button with the total. Plain forms posting to /cart; with JS
 * they are fetchers, so the panel stays open and shows errors and a pending state in place.
 */
export function CheckoutSection({ panel, cartPrice, redirectTo }: Props) {
  const fetcher = useFetcher<FormReply<CheckoutExtra>>();
  // With JS the fetcher's reply; without JS the /cart page's, where a refused checkout lands.
  const pageReply = useFormReply<CheckoutExtra>(CHECKOUT_FORM);
  const reply = fetcher.data ?? pageReply;
  const [form, fields] = useServerForm<z.input<typeof guestCheckoutSchema>>(
    panel.signedIn ? FORM_CONSTRAINTS.customerCheckout : FORM_CONSTRAINTS.guestCheckout,
    { id: CHECKOUT_FORM, lastResult: reply?.result },
  );
  const submitting = fetcher.state !== "idle";
  const humanCheck = reply?.extra?.humanCheck ?? panel.humanCheck;
  const signInHref = `/login?${new URLSearchParams({ redirectTo })}`;
  const signUpHref = `/signup?${new URLSearchParams({ redirectTo })}`;
  const chosenMethod = fields.paymentMethod.initialValue ?? panel.defaultMethod;
  const { key: messageKey, ...messageProps } = getTextareaProps(fields.message);
  const formProps = getFormProps(form);

  return (
    <section aria-label="Checkout" className="flex flex-col gap-4 border-t border-slate-200 pt-4">
      <CouponForm panel={panel} cartPrice={cartPrice} redirectTo={redirectTo} />
      <SlotCouponPicker coupons={panel.slotCoupons} redirectTo={redirectTo} />

      <fetcher.Form
        method="post"
        action="/cart"
        preventScrollReset
        {...formProps}
        // A second click while the first checkout runs would start a second order.
        onSubmit={(event) => submitting && event.preventDefault()}
        className="flex flex-col gap-3"
      >
        <input type="hidden" name="intent" value="checkout" />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <input type="hidden" name="idempotencyKey" value={panel.checkoutKey} />
        <input type="hidden" name="shownCart" value={panel.shownCart} />
        <input type="hidden" name="appliedCoupon" value={panel.appliedCoupon} />
        <FormErrors form={form} />
        {reply?.extra?.signInSuggested && (
          <p className="-mt-1 text-sm">
            <Link to={signInHref} className="font-semibold text-brand-700 underline">
              Sign In
            </Link>{" "}
            or{" "}
            <Link to="/forgot" className="font-semibold text-brand-700 underline">
              reset your password
            </Link>
          </p>
        )}

        {!panel.signedIn && (
          <div className="flex flex-col gap-1">
            <TextField label="Email Address" meta={fields.email} type="email" autoComplete="email" />
            <p className="text-sm text-slate-600">
              Have an account?{" "}
              <Link to={signInHref} className="font-semibold text-brand-700 underline">
                Sign In
              </Link>{" "}
              or{" "}
              <Link to={signUpHref} className="font-semibold text-brand-700 underline">
                Create Account
              </Link>
            </p>
            <HumanCheck challenge={humanCheck} />
          </div>
        )}

        <div className="flex flex-col gap-1">
          <label htmlFor={fields.message.id} className="text-sm font-semibold">
            Message to Admin
          </label>
          <textarea
            key={messageKey}
            {...messageProps}
            rows={3}
            placeholder="Anything we should know about your order (optional)"
            className="rounded-md border border-slate-300 px-3 py-2"
          />
          <ErrorList id={fields.message.errorId} errors={fields.message.errors} />
        </div>

        <fieldset className="flex flex-col gap-2" aria-describedby={fields.paymentMethod.errorId}>
          <legend className="mb-1 text-sm font-semibold">Payment Method</legend>
          {panel.gateways.length === 0 ? (
            <p className="text-sm text-red-700">No payment method is available right now. Please try again later.</p>
          ) : (
            <div className="grid grid-cols-2 gap-2">
              {panel.gateways.map((gateway) => (
                <label key={gateway.name} className="relative">
                  <input
                    type="radio"
                    name={fields.paymentMethod.name}
                    value={gateway.name}
                    defaultChecked={gateway.name === chosenMethod}
                    required
                    // Invisible but on top of its tile: the tile is what people see, the radio what they press.
                    className="peer absolute inset-0 z-10 cursor-pointer opacity-0"
                  />
                  <span className="flex h-full cursor-pointer items-center justify-center rounded-lg border-2 border-slate-200 px-3 py-3 text-center text-sm font-semibold peer-checked:border-brand-600 peer-checked:bg-brand-50 peer-focus-visible:ring-2 peer-focus-visible:ring-brand-600 hover:border-brand-500">
                    {gateway.label}
                  </span>
                </label>
              ))}
            </div>
          )}
          <ErrorList id={fields.paymentMethod.errorId} errors={fields.paymentMethod.errors} />
        </fieldset>

        <button
          type="submit"
          aria-disabled={submitting || panel.gateways.length === 0}
          disabled={panel.gateways.length === 0}
          className="rounded-lg bg-brand-600 px-5 py-3 text-lg font-bold text-white hover:bg-brand-700 aria-disabled:opacity-70"
        >
          {submitting ? "Processing…" : `Checkout ${formatUsd(panel.total)}`}
        </button>
        <p className="rounded-md bg-sky-50 p-3 text-sm text-sky-900" role="note">
          After payment, check your email inbox or spam folder for your order information.
        </p>
      </fetcher.Form>
    </section>
  );
}
