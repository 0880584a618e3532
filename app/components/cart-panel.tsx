import { CartContents } from "./cart-contents";
import { CheckoutSection } from "./checkout/checkout-section";
import type { CheckoutPanelData } from "~/lib/checkout.server";
import { RouteDialog } from "./dialog";
import type { CartQuote } from "~/lib/cart.server";
import { withCartPanel } from "~/lib/cart-client";

export type CartPanelData = { quote: CartQuote | null; checkout: CheckoutPanelData | null };

/**
 * The side cart over any page (?cart=open): the cart's lines and the checkout. The root loads this module only
 * when the panel opens (and the cart link starts loading it on hover or focus), so a page that never shows the
 * cart does not carry the checkout's code (ADR 032).
 */
export default function CartPanel({ panel, here }: { panel: CartPanelData; here: string }) {
  const redirectTo = withCartPanel(here, true);
  return (
    <RouteDialog title="Your Cart" closeHref={withCartPanel(here, false)} closeLabel="Close cart" placement="right">
      <CartContents
        quote={panel.quote}
        redirectTo={redirectTo}
        checkout={
          panel.quote &&
          panel.checkout && (
            <CheckoutSection panel={panel.checkout} cartPrice={panel.quote.cartPrice} redirectTo={redirectTo} />
          )
        }
      />
    </RouteDialog>
  );
}
