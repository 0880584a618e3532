import { Link } from "@remix-run/react";
import { type ReactNode, useId } from "react";
import { isPaidOrderStatus } from "../../../contract/browser/order";
import type { Order, OrderProduct } from "~/lib/orders.server";
import { formatUsd } from "~/lib/money";
import { ProductImage } from "../product-image";
import { CopyField } from "./copy-field";

export type Credential = { username: string; password: string; index: number };

/**
 * "user:pass" pairs; the password may itself hold colons. Blank entries and a bare ":" are skipped.
 * Each keeps the index a replacement request names it by (`credIndexes`, ADR 020).
 */
export function parseCredentials(creds: string[], indexes: number[] = []): Credential[] {
  return creds.flatMap((entry, position) => {
    const colon = entry.indexOf(":");
    const username = (colon === -1 ? entry : entry.slice(0, colon)).trim();
    const password = colon === -1 ? "" : entry.slice(colon + 1).trim();
    return username || password ? [{ username, password, index: indexes[position] ?? position }] : [];
  });
}

function StatusNote({ order, product }: { order: Order; product: OrderProduct }) {
  const { status } = order;
  const note = (text: string, tone: "wait" | "info" | "stop") => (
    <p
      className={`rounded-md border p-3 text-sm ${
        tone === "stop"
          ? "border-red-300 bg-red-50 text-red-800"
          : tone === "wait"
            ? "border-amber-300 bg-amber-50 text-amber-900"
            : "border-brand-500/40 bg-brand-50 text-ink"
      }`}
    >
      {text}
    </p>
  );
  if (status === "pending") {
    return note("Waiting for your payment. Your credentials appear here as soon as the payment is confirmed.", "wait");
  }
  if (status === "expired") return note("This order expired before it was paid. Nothing was delivered.", "stop");
  if (status === "cancelled") return note("This order was cancelled. Nothing was delivered.", "stop");
  if (product.refunded) {
    return note("Refunded to your account balance. Its credentials were withdrawn.", "stop");
  }
  // Staff deliver a manual line whole; a line with no credentials and no replacements is still waiting.
  const replaced = order.products.some((line) => line.isReplacement && line.productOption === product.productOption);
  if (product.fullFillmode === "manual" && product.creds.length === 0 && !replaced) {
    return note("Your order is being processed. We deliver it here and by email as soon as it is ready.", "info");
  }
  return null;
}

/**
 * One product of an order as /find-order shows it (spec section 2, Find Order). The page adds each
 * credential's Replace control and the line's request links (request-panels.tsx); `children` its feedback form.
 */
export function OrderProductCard({
  order,
  product,
  credentialExtra,
  actions,
  children,
}: {
  order: Order;
  product: OrderProduct;
  credentialExtra?: (index: number) => ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  // A paid order shows what is delivered, its manual lines being processed or not.
  const delivered = isPaidOrderStatus(order.status);
  const credentials = delivered ? parseCredentials(product.creds, product.credIndexes) : [];
  const many = credentials.length > 1;
  const headingId = useId();
  return (
    <article
      className="flex flex-col gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
      data-testid="order-product"
      aria-labelledby={headingId}
    >
      <header className="flex gap-4">
        <ProductImage
          src={product.picture}
          alt=""
          sizes="6rem"
          className="aspect-video h-auto w-24 shrink-0 self-start rounded-md"
        />
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-bold">
            {product.title}
          </h2>
          {product.subtitle && <p className="text-slate-600">{product.subtitle}</p>}
          <p className="text-sm text-slate-600">
            {product.quantity} × {product.duration} days · {formatUsd(product.price)}
            {product.isReplacement && " · Replacement"}
          </p>
        </div>
      </header>

      <StatusNote order={order} product={product} />

      {delivered && product.deliveryNotes && (
        <section>
          <h3 className="text-sm font-semibold">Delivery information</h3>
          <p className="whitespace-pre-line text-sm text-slate-700">{product.deliveryNotes}</p>
        </section>
      )}

      {credentials.length > 0 && (
        <ul className="flex flex-col gap-3" aria-label={`Credentials for ${product.title}`}>
          {credentials.map((credential, index) => (
            <li key={credential.index} className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3">
              {many && <p className="text-sm font-semibold">Account {index + 1}</p>}
              {credential.username && <CopyField label="Username" value={credential.username} />}
              {credential.password && <CopyField label="Password" value={credential.password} />}
              {credentialExtra?.(credential.index)}
            </li>
          ))}
        </ul>
      )}
      {credentials.length === 0 &&
        !product.isReplacement &&
        order.products.some((line) => line.isReplacement && line.productOption === product.productOption) && (
          <p className="text-sm text-slate-600">
            Every account of this product was replaced: see the replacements below.
          </p>
        )}
      {delivered && product.expiry && (
        <p className="text-sm text-slate-600">
          Warranty until <time dateTime={product.expiry}>{new Date(product.expiry).toUTCString().slice(0, 16)}</time>
        </p>
      )}

      {children}

      <Link
        to={`/support?${new URLSearchParams({ orderId: order._id })}`}
        className="self-start font-semibold text-brand-700 underline"
      >
        Contact Support
      </Link>
      {actions}

      {product.description && (
        <section>
          <h3 className="text-sm font-semibold">Description</h3>
          <p className="whitespace-pre-line text-sm text-slate-700">{product.description}</p>
        </section>
      )}
    </article>
  );
}
