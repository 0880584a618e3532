import { type SQL, and, asc, count, eq, ilike, inArray, ne, or, sql } from "drizzle-orm";
import { COUPONS_PAGE_SIZE, COUPON_FORM_MESSAGES, type CouponInput } from "../../../contract/admin-coupons";
import type { AdminCoupon, CouponPage, ProductChoice } from "../../../contract/answers/admin-coupons";
import { centsToUsd, usdToCents } from "../../../contract/money";
import type { Database, Executor } from "../../db/client";
import { couponProducts, couponRedemptions, coupons, orders, products, users } from "../../db/schema";
import { AppError, badRequest, conflict, notFound } from "../../errors";
import { brokenUniqueIndex } from "../accounts/accounts";
import { type StaffActor, recordAudit } from "../staff/audit";
import { containsPattern, countRows, newestFirst, readPage } from "../shared/paging";

/*
 * Coupons in the back office (ADR 026). What is stored here is exactly what checkout reads
 * (discounts.ts: computeDiscount and redeemCoupon): kind and amount (percent, or cents), the minimum in
 * cents, total uses, uses per customer, expiry, the products, active. Slots prizes (source `slots`) are
 * the game's: staff can see and deactivate them, not edit or delete them.
 */

export const ADMIN_COUPON_MESSAGES = {
  notFound: "No coupon has this id",
  slotsPrize: "A slots prize cannot be edited or deleted; deactivate it instead.",
  used: "This coupon has been used on an order, so it stays for the record: deactivate it instead.",
  usesBelowCount: (used: number) => `It has been used ${used} times already: allow at least ${used} uses`,
  unknownProducts: "Some of the chosen products do not exist any more. Choose again.",
} as const;

type CouponRow = typeof coupons.$inferSelect;

/** The products of each coupon, in one query. */
async function productsOf(db: Executor, couponIds: string[]) {
  const byCoupon = new Map<string, { _id: string; title: string }[]>();
  if (couponIds.length === 0) return byCoupon;
  const rows = await db
    .select({ couponId: couponProducts.couponId, id: products.id, title: products.title })
    .from(couponProducts)
    .innerJoin(products, eq(products.id, couponProducts.productId))
    .where(inArray(couponProducts.couponId, couponIds))
    .orderBy(asc(products.title));
  for (const row of rows) {
    const list = byCoupon.get(row.couponId) ?? [];
    list.push({ _id: row.id, title: row.title });
    byCoupon.set(row.couponId, list);
  }
  return byCoupon;
}

function viewOf(row: CouponRow & { ownerEmail: string | null }, linked: { _id: string; title: string }[]): AdminCoupon {
  return {
    _id: row.id,
    code: row.code,
    kind: row.kind,
    amount: row.kind === "percent" ? row.amount : centsToUsd(row.amount),
    minAmount: centsToUsd(row.minAmountCents),
    maxUses: row.maxUses,
    usedCount: row.usedCount,
    perCustomerLimit: row.perCustomerLimit,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    products: linked,
    active: row.active,
    source: row.source,
    ownerEmail: row.ownerEmail,
    createdAt: row.createdAt.toISOString(),
  };
}

const couponColumns = { coupon: coupons, ownerEmail: users.email };

/** Newest first, of one source (the store's own coupons, or slots prizes); `search` matches part of the code. */
export async function listCoupons(
  db: Executor,
  query: { page: number; search: string; source: "admin" | "slots" },
): Promise<CouponPage> {
  const filters: SQL[] = [eq(coupons.source, query.source)];
  if (query.search) {
    const pattern = containsPattern(query.search);
    filters.push(or(ilike(coupons.code, pattern), ilike(users.email, pattern))!);
  }
  const where = and(...filters);
  const { pager, rows } = await readPage(
    db,
    db.select(couponColumns).from(coupons).leftJoin(users, eq(users.id, coupons.userId)).$dynamic(),
    {
      counted: countRows(db).from(coupons).leftJoin(users, eq(users.id, coupons.userId)).$dynamic(),
      where,
      orderBy: newestFirst(coupons),
      page: query.page,
      pageSize: COUPONS_PAGE_SIZE,
    },
  );
  const linked = await productsOf(
    db,
    rows.map((row) => row.coupon.id),
  );
  return {
    records: rows.map((row) => viewOf({ ...row.coupon, ownerEmail: row.ownerEmail }, linked.get(row.coupon.id) ?? [])),
    pager,
  };
}

export async function readCoupon(db: Executor, couponId: string): Promise<AdminCoupon> {
  const [row] = await db
    .select(couponColumns)
    .from(coupons)
    .leftJoin(users, eq(users.id, coupons.userId))
    .where(eq(coupons.id, couponId));
  if (!row) throw notFound(ADMIN_COUPON_MESSAGES.notFound);
  const linked = await productsOf(db, [couponId]);
  return viewOf({ ...row.coupon, ownerEmail: row.ownerEmail }, linked.get(couponId) ?? []);
}

/** Every product a coupon can be restricted to, hidden ones included (marked). */
export async function couponProductChoices(db: Executor): Promise<ProductChoice[]> {
  const rows = await db
    .select({ id: products.id, title: products.title, active: products.active })
    .from(products)
    .orderBy(asc(products.title), asc(products.id));
  return rows.map((row) => ({ _id: row.id, title: row.title, active: row.active }));
}

const codeTaken = () => new AppError(409, COUPON_FORM_MESSAGES.codeTaken, { code: [COUPON_FORM_MESSAGES.codeTaken] });

/** The stored columns of a coupon from the form's input. */
function columnsOf(input: CouponInput) {
  return {
    code: input.code,
    kind: input.kind,
    amount: input.kind === "percent" ? input.amount : usdToCents(input.amount),
    minAmountCents: usdToCents(input.minAmount),
    maxUses: input.maxUses,
    perCustomerLimit: input.perCustomerLimit,
    expiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
    active: input.active,
  };
}

/** What the audit log shows of a coupon. */
function auditFields(columns: ReturnType<typeof columnsOf>, productIds: string[]) {
  return {
    code: columns.code,
    kind: columns.kind,
    amount: columns.kind === "percent" ? `${columns.amount}%` : `$${centsToUsd(columns.amount).toFixed(2)}`,
    minAmount: `$${centsToUsd(columns.minAmountCents).toFixed(2)}`,
    maxUses: columns.maxUses,
    perCustomerLimit: columns.perCustomerLimit,
    expiresAt: columns.expiresAt?.toISOString() ?? null,
    products: [...productIds].sort(),
    active: columns.active,
  };
}

async function assertCodeFree(tx: Executor, code: string, exceptId?: string) {
  const [taken] = await tx
    .select({ id: coupons.id })
    .from(coupons)
    .where(and(sql`lower(${coupons.code}) = lower(${code})`, exceptId ? ne(coupons.id, exceptId) : undefined));
  if (taken) throw codeTaken();
}

async function assertProductsExist(tx: Executor, productIds: string[]) {
  const unique = [...new Set(productIds)];
  if (unique.length === 0) return unique;
  const [{ found }] = await tx.select({ found: count() }).from(products).where(inArray(products.id, unique));
  if (Number(found) !== unique.length) {
    throw badRequest(ADMIN_COUPON_MESSAGES.unknownProducts, { productIds: [ADMIN_COUPON_MESSAGES.unknownProducts] });
  }
  return unique;
}

/** A lost race for a code (two staff saving the same one) answers as the check does. */
async function withCodeRace<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (brokenUniqueIndex(error) === "coupons_code_lower_key") throw codeTaken();
    throw error;
  }
}

export async function createCoupon(db: Database, actor: StaffActor, input: CouponInput): Promise<AdminCoupon> {
  const id = await withCodeRace(() =>
    db.transaction(async (tx) => {
      await assertCodeFree(tx, input.code);
      const productIds = await assertProductsExist(tx, input.productIds);
      const columns = columnsOf(input);
      const [created] = await tx
        .insert(coupons)
        .values({ ...columns, source: "admin" })
        .returning({ id: coupons.id });
      if (productIds.length > 0) {
        await tx.insert(couponProducts).values(productIds.map((productId) => ({ couponId: created.id, productId })));
      }
      await recordAudit(tx, actor, {
        action: "coupon.create",
        objectType: "coupon",
        objectId: created.id,
        objectLabel: input.code,
        after: auditFields(columns, productIds),
      });
      return created.id;
    }),
  );
  return readCoupon(db, id);
}

async function lockCoupon(tx: Executor, couponId: string) {
  const [row] = await tx.select().from(coupons).where(eq(coupons.id, couponId)).for("update");
  if (!row) throw notFound(ADMIN_COUPON_MESSAGES.notFound);
  return row;
}

async function linkedProductIds(tx: Executor, couponId: string) {
  const rows = await tx
    .select({ productId: couponProducts.productId })
    .from(couponProducts)
    .where(eq(couponProducts.couponId, couponId));
  return rows.map((row) => row.productId);
}

/**
 * Saves the whole coupon. The row is locked first, so a checkout counting a use waits, and a total
 * below the uses so far is refused rather than broken by the next checkout.
 */
export async function updateCoupon(
  db: Database,
  actor: StaffActor,
  couponId: string,
  input: CouponInput,
): Promise<AdminCoupon> {
  await withCodeRace(() =>
    db.transaction(async (tx) => {
      const current = await lockCoupon(tx, couponId);
      if (current.source === "slots") throw conflict(ADMIN_COUPON_MESSAGES.slotsPrize);
      if (input.maxUses !== null && input.maxUses < current.usedCount) {
        const message = ADMIN_COUPON_MESSAGES.usesBelowCount(current.usedCount);
        throw badRequest(message, { maxUses: [message] });
      }
      await assertCodeFree(tx, input.code, couponId);
      const productIds = await assertProductsExist(tx, input.productIds);
      const before = auditFields(current, await linkedProductIds(tx, couponId));
      const columns = columnsOf(input);
      const after = auditFields(columns, productIds);
      if (JSON.stringify(before) === JSON.stringify(after)) return;
      await tx.update(coupons).set(columns).where(eq(coupons.id, couponId));
      await tx.delete(couponProducts).where(eq(couponProducts.couponId, couponId));
      if (productIds.length > 0) {
        await tx.insert(couponProducts).values(productIds.map((productId) => ({ couponId, productId })));
      }
      await recordAudit(tx, actor, {
        action: "coupon.update",
        objectType: "coupon",
        objectId: couponId,
        objectLabel: input.code,
        before,
        after,
      });
    }),
  );
  return readCoupon(db, couponId);
}

/** Stops a coupon (slots prizes too) from applying at checkout; orders that used it keep their discount. */
export async function deactivateCoupon(db: Database, actor: StaffActor, couponId: string): Promise<AdminCoupon> {
  await db.transaction(async (tx) => {
    const current = await lockCoupon(tx, couponId);
    if (!current.active) return;
    await tx.update(coupons).set({ active: false }).where(eq(coupons.id, couponId));
    await recordAudit(tx, actor, {
      action: "coupon.deactivate",
      objectType: "coupon",
      objectId: couponId,
      objectLabel: current.code,
      before: { active: true },
      after: { active: false },
    });
  });
  return readCoupon(db, couponId);
}

/**
 * Deletes a coupon no order ever named (an order that named it keeps the reference even when it ended
 * unpaid and gave its use back). Locked first, so a checkout in flight either comes first or finds it gone.
 */
export async function deleteCoupon(db: Database, actor: StaffActor, couponId: string): Promise<string> {
  return db.transaction(async (tx) => {
    const current = await lockCoupon(tx, couponId);
    if (current.source === "slots") throw conflict(ADMIN_COUPON_MESSAGES.slotsPrize);
    const [named] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.couponId, couponId)).limit(1);
    const [redeemed] = await tx
      .select({ orderId: couponRedemptions.orderId })
      .from(couponRedemptions)
      .where(eq(couponRedemptions.couponId, couponId))
      .limit(1);
    if (current.usedCount > 0 || named || redeemed) throw conflict(ADMIN_COUPON_MESSAGES.used);
    const productIds = await linkedProductIds(tx, couponId);
    await tx.delete(coupons).where(eq(coupons.id, couponId));
    await recordAudit(tx, actor, {
      action: "coupon.delete",
      objectType: "coupon",
      objectId: couponId,
      objectLabel: current.code,
      before: auditFields(current, productIds),
    });
    return current.code;
  });
}
