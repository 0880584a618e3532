import { asc, eq, inArray } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { deliveredCredentials, stockCredentials } from "../../db/schema";
import { credentialColumns } from "../stock/secrets";

/**
 * Every credential delivered to these order lines, replaced ones included, in delivery order: what the staff's
 * credentials view and the personal-data export both show. Reveal each with revealCredential(row).
 */
export async function deliveredCredentialsOfLines(db: Executor, lineIds: string[]) {
  if (lineIds.length === 0) return [];
  return db
    .select({
      orderProductId: deliveredCredentials.orderProductId,
      position: deliveredCredentials.position,
      ...credentialColumns,
      deliveredAt: deliveredCredentials.deliveredAt,
      expiresAt: deliveredCredentials.expiresAt,
      replacedAt: deliveredCredentials.replacedAt,
    })
    .from(deliveredCredentials)
    .innerJoin(stockCredentials, eq(stockCredentials.id, deliveredCredentials.credentialId))
    .where(inArray(deliveredCredentials.orderProductId, lineIds))
    .orderBy(asc(deliveredCredentials.position));
}
