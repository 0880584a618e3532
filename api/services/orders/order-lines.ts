import { type Executor, prepared } from "../../db/client";
import { newId } from "../../db/ids";
import { orderProducts } from "../../db/schema";
import { conflict } from "../../errors";
import type { PricedOption } from "../catalogue/shop";
import { claimAndDeliver, claimCredentials } from "../stock/claims";
import type { PlacedOrder } from "./settlement";

/*
 * An order's lines: what each keeps of its option (exact cents and the product's texts, so later catalogue
 * edits never change a placed order) and the stock each takes as it is written.
 */

export const soldOutMessage = (productTitle: string, optionTitle: string, left: number) =>
  left > 0
    ? `Sorry, only ${left} left of ${productTitle} — ${optionTitle}`
    : `Sorry, ${productTitle} — ${optionTitle} is sold out`;

type LineDetail = {
  productId: string;
  unitPriceCents: number;
  subtitle: string;
  description: string;
  deliveryNotes: string;
  fulfilMode: "auto" | "manual";
};

/** What an order's line keeps of its option and duration: exact cents and the product's texts. */
export function lineDetail(option: PricedOption, duration: number): LineDetail {
  const texts = option.orderTexts!;
  return {
    productId: option.product._id,
    unitPriceCents: option.priceCentsByDuration.get(duration)!,
    subtitle: option.subOptions.find((subOption) => subOption.duration === duration)!.title,
    description: texts.description,
    deliveryNotes: texts.deliveryNotes,
    fulfilMode: texts.fulfilMode,
  };
}

type NewOrderLine = LineDetail & {
  optionId: string;
  productTitle: string;
  optionTitle: string;
  picture: string;
  durationDays: number;
  quantity: number;
};

type ProductSnapshot = Pick<
  typeof orderProducts.$inferInsert,
  "productId" | "optionId" | "subtitle" | "picture" | "description" | "deliveryNotes" | "fulfilMode" | "durationDays"
>;

/** What an order line copies of the product and option it sells (besides the title), so later catalogue edits leave it as bought. */
export const productSnapshotOf = (source: ProductSnapshot): ProductSnapshot => ({
  productId: source.productId,
  optionId: source.optionId,
  subtitle: source.subtitle,
  picture: source.picture,
  description: source.description,
  deliveryNotes: source.deliveryNotes,
  fulfilMode: source.fulfilMode,
  durationDays: source.durationDays,
});

/**
 * Snapshots each line into order_products and takes a credential for every unit of an auto-fulfilment line:
 * reserved for a payment to come, or (`deliverNow`, an order paid as it is placed) delivered at once. A line
 * that cannot get all its units throws the sold-out 409, and the caller's transaction undoes it all. Answers the
 * lines as written and what each automatic line received.
 */
export async function insertOrderLines(
  tx: Executor,
  orderId: string,
  lines: NewOrderLine[],
  claim: { reservedUntil: Date | null; now: Date; deliverNow: boolean },
): Promise<Pick<PlacedOrder, "lines" | "deliveredByLine">> {
  // Every line in one statement (its first round trip is shared with the order's insert: create.ts).
  const ids = lines.map(() => newId());
  const rows = await prepared(
    tx
      .insert(orderProducts)
      .values(
        lines.map((line, index) => ({
          id: ids[index],
          orderId,
          ...productSnapshotOf(line),
          title: line.productTitle,
          unitPriceCents: line.unitPriceCents,
          quantity: line.quantity,
          priceCents: line.unitPriceCents * line.quantity,
          createdAt: claim.now,
        })),
      )
      .returning(),
    "insert_order_lines",
  );
  const rowById = new Map(rows.map((row) => [row.id, row]));
  const written = ids.map((id) => rowById.get(id)!);
  const deliveredByLine = new Map<string, number>();
  for (const [index, line] of lines.entries()) {
    const row = written[index];
    if (line.fulfilMode === "manual") continue;
    const taken = claim.deliverNow
      ? await claimAndDeliver(tx, row, claim.now)
      : (
          await claimCredentials(tx, {
            optionId: line.optionId,
            orderProductId: row.id,
            quantity: line.quantity,
            reservedUntil: claim.reservedUntil,
          })
        ).length;
    if (taken < line.quantity) {
      throw conflict(soldOutMessage(line.productTitle, line.optionTitle, taken));
    }
    if (claim.deliverNow) deliveredByLine.set(row.id, taken);
  }
  return { lines: written, deliveredByLine };
}
