import { createHash } from "node:crypto";
import { count, sql } from "drizzle-orm";
import type { Logger } from "../logger";
import type { Database, Executor } from "./client";
import {
  demoAnnouncement,
  demoCategories,
  demoCoupon,
  demoDeliveryNotes,
  demoDescription,
  demoDocuments,
  demoFaqs,
  demoPaymentGateways,
  demoProducts,
  demoSocialLinks,
  warrantyPriceCents,
  warrantyTitle,
} from "./demo-data";
import { demoPictureAddress } from "./demo-art/pictures";
import { type DemoOwner, ensureDemoOwner } from "./demo-owner";
import { demoId } from "./ids";
import { seedDemoFeedback, seedDemoKeys } from "./seed-feedback";
import {
  announcements,
  categories,
  coupons,
  documents,
  faqs,
  paymentGateways,
  productCategories,
  productOptions,
  products,
  socialLinks,
  stockCredentials,
  warrantyDurations,
} from "./schema";
import { sealedColumns } from "../services/stock/secrets";

/** Large enough to be quick, small enough to stay far below PostgreSQL's bind-parameter limit. */
const INSERT_BATCH = 500;

async function insertInBatches<T>(rows: T[], insert: (batch: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += INSERT_BATCH) {
    await insert(rows.slice(start, start + INSERT_BATCH));
  }
}

/** Same input, same password: reseeding finds the same credentials. */
function demoPassword(seed: string): string {
  return createHash("sha256").update(`demo-password:${seed}`).digest("base64url").slice(0, 14);
}

/**
 * Inserts the demo catalogue and content. Every row has a stable id and conflicts are ignored,
 * so running it again changes nothing and never touches rows an admin created.
 */
export async function seedDemoData(db: Executor): Promise<void> {
  await db
    .insert(categories)
    .values(
      demoCategories.map((category, position) => ({
        id: demoId("category", category.slug),
        name: category.name,
        position,
      })),
    )
    .onConflictDoNothing();

  const productRows = demoProducts.map((product, position) => ({
    id: demoId("product", product.slug),
    title: product.title,
    label: product.label,
    subtitle: product.subtitle,
    picture: demoPictureAddress(product),
    description: demoDescription(product),
    deliveryNotes: demoDeliveryNotes(product),
    minQuantity: product.minQuantity ?? 1,
    maxQuantity: product.maxQuantity ?? null,
    fulfilMode: product.fulfilMode ?? ("auto" as const),
    position,
  }));
  await db.insert(products).values(productRows).onConflictDoNothing();

  await db
    .insert(productCategories)
    .values(
      demoProducts.flatMap((product) =>
        product.categories.map((slug) => ({
          productId: demoId("product", product.slug),
          categoryId: demoId("category", slug),
        })),
      ),
    )
    .onConflictDoNothing();

  const optionRows: (typeof productOptions.$inferInsert)[] = [];
  const durationRows: (typeof warrantyDurations.$inferInsert)[] = [];
  const credentialRows: (typeof stockCredentials.$inferInsert)[] = [];
  for (const product of demoProducts) {
    product.options.forEach((option, position) => {
      const optionKey = `${product.slug}:${position}`;
      const optionId = demoId("option", optionKey);
      optionRows.push({ id: optionId, productId: demoId("product", product.slug), title: option.title, position });
      product.warrantyDays.forEach((days, durationPosition) => {
        durationRows.push({
          id: demoId("duration", `${optionKey}:${days}`),
          optionId,
          title: warrantyTitle(days),
          durationDays: days,
          priceCents: warrantyPriceCents(option.monthlyCents, days),
          position: durationPosition,
        });
      });
      // Manual products are delivered by staff, so they carry no credential stock.
      if (product.fulfilMode === "manual") return;
      for (let number = 1; number <= option.stock; number++) {
        credentialRows.push({
          id: demoId("credential", `${optionKey}:${number}`),
          optionId,
          // Written sealed like every credential (ADR 056): a demo database's dump holds no goods either.
          ...sealedColumns({
            username: `${product.slug.split("-")[0]}.${position + 1}.${String(number).padStart(3, "0")}@mail.example`,
            password: demoPassword(`${optionKey}:${number}`),
          }),
        });
      }
    });
  }
  await db.insert(productOptions).values(optionRows).onConflictDoNothing();
  await db.insert(warrantyDurations).values(durationRows).onConflictDoNothing();
  await insertInBatches(credentialRows, (batch) => db.insert(stockCredentials).values(batch).onConflictDoNothing());

  await db
    .insert(faqs)
    .values(demoFaqs.map((faq, position) => ({ id: demoId("faq", String(position)), ...faq, position })))
    .onConflictDoNothing();
  await db
    .insert(socialLinks)
    .values(
      demoSocialLinks.map((social, position) => ({
        id: demoId("social", social.slug),
        name: social.name,
        link: social.link,
        position,
      })),
    )
    .onConflictDoNothing();
  await db
    .insert(announcements)
    .values({ id: demoId("announcement", "ethical-sourcing"), text: demoAnnouncement })
    .onConflictDoNothing();
  await db
    .insert(paymentGateways)
    .values(demoPaymentGateways.map((gateway, position) => ({ ...gateway, enabled: true, position })))
    .onConflictDoNothing();
  await db
    .insert(documents)
    .values(demoDocuments.map((document) => ({ id: demoId("document", document.name), ...document })))
    .onConflictDoNothing();
  await db
    .insert(coupons)
    .values({ id: demoId("coupon", demoCoupon.code), ...demoCoupon })
    .onConflictDoNothing();
  await seedDemoFeedback(db);
  await seedDemoKeys(db);
}

/** Said at every production start with SEED_DEMO=true (ADR 053): the demo's coupon and keys are public. */
export const DEMO_IN_PRODUCTION_WARNING =
  "SEED_DEMO=true in production: this store holds the demo catalogue, customers and orders, the coupon WELCOME10 " +
  "and the redeem keys published in the README, which anyone can use. A real store starts on an empty database " +
  "without SEED_DEMO (README, Running in production).";

/** Any fixed number: names the advisory lock the demo seed takes (the migrations' is 740_0001). */
const SEED_LOCK = 740_0002;

export type SeedOptions = {
  /** Development: make the demo owner too (its password into this folder), under the same lock. */
  demoOwnerDir?: string;
};

/**
 * Seeds the demo catalogue when asked to, or when unset (development and tests only: production leaves it
 * false unless SEED_DEMO=true, ADR 053) and the database has no products. Instances starting together on one
 * fresh database take turns on an advisory lock, and the count is read under it: the first seeds, the others
 * find its products and seed nothing. The demo owner is made under the same lock, so the others find it too.
 * Answers the demo owner when this call made it.
 */
export async function seedWhenWanted(
  db: Database,
  seedDemo: boolean | undefined,
  logger: Logger,
  options: SeedOptions = {},
): Promise<{ demoOwner?: DemoOwner }> {
  if (seedDemo === false) return {};
  const started = performance.now();
  const { seeded, demoOwner } = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    let seeded = true;
    if (seedDemo === undefined) {
      const [{ products: existing }] = await tx.select({ products: count() }).from(products);
      seeded = existing === 0;
    }
    if (seeded) await seedDemoData(tx);
    const demoOwner = options.demoOwnerDir ? await ensureDemoOwner(tx, options.demoOwnerDir) : undefined;
    return { seeded, demoOwner };
  });
  if (seeded) {
    logger.info("demo data seeded", {
      products: demoProducts.length,
      ms: Math.round(performance.now() - started),
    });
  }
  return { demoOwner };
}
