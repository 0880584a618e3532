import { isPaidOrderStatus } from "../../../contract/order";

/*
 * How much of an order staff may still refund to the balance, line by line (ADR 028). Pure arithmetic
 * over rows the caller read under the order's lock, so the order page and the refund agree.
 */

export type RefundOrder = {
  status: string;
  priceCents: number;
  subtotalCents: number;
};

export type RefundLine = {
  id: string;
  priceCents: number;
  unitPriceCents: number;
  quantity: number;
  fulfilMode: "auto" | "manual";
  isReplacement: boolean;
  refundedAt: Date | null;
  /** Credentials ever delivered on the line, replaced ones included. */
  deliveredRows: number;
};

/**
 * What the customer paid for each line bought: the order's price (after its discount) shared out by the
 * lines' prices, with the cents rounding leaves given to the largest remainders, so the shares add up to
 * exactly what was paid. Replacement lines were free.
 */
export function paidShares(order: RefundOrder, lines: RefundLine[]): Map<string, number> {
  const bought = lines.filter((line) => !line.isReplacement);
  const shares = new Map(lines.map((line) => [line.id, 0]));
  if (order.subtotalCents <= 0 || order.priceCents <= 0) return shares;
  const exact = bought.map((line) => ({
    id: line.id,
    value: (line.priceCents * order.priceCents) / order.subtotalCents,
  }));
  let left = order.priceCents;
  for (const share of exact) {
    shares.set(share.id, Math.floor(share.value));
    left -= Math.floor(share.value);
  }
  const byRemainder = [...exact].sort((a, b) => b.value - Math.floor(b.value) - (a.value - Math.floor(a.value)));
  for (const share of byRemainder) {
    if (left <= 0) break;
    shares.set(share.id, shares.get(share.id)! + 1);
    left--;
  }
  return shares;
}

/**
 * The cents each line may still be refunded: its share of the price, less what a late payment already
 * credited for its units that were never delivered (fulfilPaidOrder), nothing for a line refunded before
 * or an order not paid; and all of it together never more than the order's price less every refund
 * already credited for it (`returnedCents`, from the ledger), whatever the rounding.
 */
export function refundableByLine(order: RefundOrder, lines: RefundLine[], returnedCents: number): Map<string, number> {
  const refundable = new Map(lines.map((line) => [line.id, 0]));
  if (!isPaidOrderStatus(order.status)) return refundable;
  const shares = paidShares(order, lines);
  let left = Math.max(0, order.priceCents - returnedCents);
  for (const line of lines) {
    if (line.isReplacement || line.refundedAt) continue;
    // An automatic line is delivered at payment: what it lacks was sold out then, and credited at once.
    const lateCredit =
      line.fulfilMode === "auto"
        ? Math.round(
            (Math.max(0, line.quantity - line.deliveredRows) * line.unitPriceCents * order.priceCents) /
              order.subtotalCents,
          )
        : 0;
    const amount = Math.min(left, Math.max(0, shares.get(line.id)! - lateCredit));
    refundable.set(line.id, amount);
    left -= amount;
  }
  return refundable;
}
