import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { FULFIL_MODES } from "../../contract/admin-catalogue";
import { COUPON_KINDS, COUPON_SOURCES } from "../../contract/admin-coupons";
import { ORDER_SOURCES } from "../../contract/admin-orders";
import { BALANCE_ENTRY_TYPES } from "../../contract/balance";
import { PAYMENT_PURPOSES, PAYMENT_STATUSES } from "../../contract/browser/order";
import { ORDER_STATUSES } from "../../contract/order";
import { REQUEST_KINDS, REQUEST_STATUSES } from "../../contract/browser/request";
import { TICKET_STATUSES } from "../../contract/browser/ticket";
import { newId } from "./ids";

/*
 * The whole store's data, so later features add rows, not churn.
 * Money is integer cents (USD). Public ids are 128-bit random base64url strings.
 * Invariants that must hold under concurrency (balance >= 0, single use, one credential
 * per delivery) are constraints here, not only checks in services.
 */

const id = () =>
  text("id")
    .primaryKey()
    .$defaultFn(() => newId());
const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp("updated_at", { withTimezone: true }).notNull().defaultNow();

// ---------------------------------------------------------------- accounts

export const users = pgTable(
  "users",
  {
    id: id(),
    username: text("username").notNull(),
    email: text("email").notNull(),
    passwordHash: text("password_hash").notNull(),
    /** Staff roles (ADR 023): owner > manager > support; everyone else is a customer. */
    role: text("role", { enum: ["customer", "owner", "manager", "support"] })
      .notNull()
      .default("customer"),
    balanceCents: integer("balance_cents").notNull().default(0),
    /** Set for accounts created by guest checkout until the owner sets a password. */
    autoCreated: boolean("auto_created").notNull().default(false),
    /** Set by staff: sign-in is refused and every session revoked while it is set. */
    blockedAt: timestamp("blocked_at", { withTimezone: true }),
    blockReason: text("block_reason").notNull().default(""),
    /** Staff two-factor sign-in (TOTP): the secret, encrypted with a key derived from SESSION_SECRET. */
    totpSecret: text("totp_secret"),
    /** Set once the first code from the authenticator app was accepted; null: two-factor sign-in is off. */
    totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true }),
    /** The last 30-second step a code was accepted for: a code is never accepted twice. */
    totpLastStep: integer("totp_last_step"),
    /**
     * Set when the person deleted the account (or staff did at their request, ADR 044): the row stays as a
     * tombstone for the orders and the ledger, with no name, address or password, and no token works for it.
     */
    deletedAt: timestamp("deleted_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_username_lower_key").on(sql`lower(${t.username})`),
    uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`),
    check("users_balance_not_negative", sql`${t.balanceCents} >= 0`),
    check("users_role_known", sql`${t.role} in ('customer', 'owner', 'manager', 'support')`),
  ],
);

/** Bearer tokens: only a SHA-256 hash is stored; revoking sets revoked_at. */
export const sessions = pgTable(
  "sessions",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    userAgent: text("user_agent"),
  },
  (t) => [uniqueIndex("sessions_token_hash_key").on(t.tokenHash), index("sessions_user_idx").on(t.userId)],
);

/**
 * Browsers that have signed in to an account: a random device token, stored as a SHA-256 hash.
 * A sign-in that presents one skips the account-wide human-check requirement (ADR 015).
 * One browser keeps one token; signing in to a second account adds a row with the same hash.
 */
export const knownDevices = pgTable(
  "known_devices",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("known_devices_token_user_key").on(t.tokenHash, t.userId),
    index("known_devices_user_idx").on(t.userId),
  ],
);

export const passwordResets = pgTable(
  "password_resets",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("password_resets_user_idx").on(t.userId)],
);

/** One-time recovery codes of a staff member's two-factor sign-in, stored as SHA-256 hashes. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("recovery_codes_user_code_key").on(t.userId, t.codeHash)],
);

/**
 * The second step of a staff sign-in: the password was right, the code is still to come. Only a hash
 * of the challenge token is stored; it lasts minutes, counts wrong codes and is used once.
 */
export const signInChallenges = pgTable(
  "sign_in_challenges",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("sign_in_challenges_token_hash_key").on(t.tokenHash)],
);

/** Fixed-window counters shared by every instance through the database. */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    hits: integer("hits").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] })],
);

// ---------------------------------------------------------------- catalogue

export const categories = pgTable("categories", {
  id: id(),
  name: text("name").notNull(),
  position: integer("position").notNull().default(0),
  createdAt: createdAt(),
});

export const products = pgTable(
  "products",
  {
    id: id(),
    title: text("title").notNull(),
    label: text("label").notNull().default(""),
    subtitle: text("subtitle").notNull().default(""),
    picture: text("picture").notNull().default(""),
    description: text("description").notNull().default(""),
    deliveryNotes: text("delivery_notes").notNull().default(""),
    minQuantity: integer("min_quantity").notNull().default(1),
    /** null: no product limit (the shop caps at 999 and stock). */
    maxQuantity: integer("max_quantity"),
    fulfilMode: text("fulfil_mode", { enum: FULFIL_MODES }).notNull().default("auto"),
    /** A replacement request is filled from stock at once; off: every request waits for staff (ADR 020). */
    autoReplace: boolean("auto_replace").notNull().default(true),
    /** How many times one delivered credential (and its successors) may be replaced under warranty. */
    replacementLimit: integer("replacement_limit").notNull().default(3),
    active: boolean("active").notNull().default(true),
    position: integer("position").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("products_min_quantity_positive", sql`${t.minQuantity} >= 1`),
    check("products_replacement_limit_not_negative", sql`${t.replacementLimit} >= 0`),
    check("products_max_not_below_min", sql`${t.maxQuantity} is null or ${t.maxQuantity} >= ${t.minQuantity}`),
  ],
);

export const productCategories = pgTable(
  "product_categories",
  {
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    categoryId: text("category_id")
      .notNull()
      .references(() => categories.id, { onDelete: "cascade" }),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.categoryId] }),
    index("product_categories_category_idx").on(t.categoryId),
  ],
);

export const productOptions = pgTable(
  "product_options",
  {
    id: id(),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    active: boolean("active").notNull().default(true),
    position: integer("position").notNull().default(0),
    /** How many buyers one credential is sold to: 1 for a private account, N for a shared one (seats). */
    seats: integer("seats").notNull().default(1),
    /** The back office lists the option as low on stock when its free seats fall under this (0: never). */
    lowStockThreshold: integer("low_stock_threshold").notNull().default(0),
    /**
     * Set when the operator was told the option fell under its threshold (or sold out); cleared when stock
     * rises above it again, so each crossing is notified once, not every sale under it.
     */
    lowStockNotifiedAt: timestamp("low_stock_notified_at", { withTimezone: true }),
    soldOutNotifiedAt: timestamp("sold_out_notified_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("product_options_product_idx").on(t.productId),
    check("product_options_seats_range", sql`${t.seats} between 1 and 1000`),
    check("product_options_low_stock_not_negative", sql`${t.lowStockThreshold} >= 0`),
  ],
);

/** The spec's subOptions: a warranty duration of an option with its own price. */
export const warrantyDurations = pgTable(
  "warranty_durations",
  {
    id: id(),
    optionId: text("option_id")
      .notNull()
      .references(() => productOptions.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    durationDays: integer("duration_days").notNull(),
    priceCents: integer("price_cents").notNull(),
    position: integer("position").notNull().default(0),
  },
  (t) => [
    uniqueIndex("warranty_durations_option_duration_key").on(t.optionId, t.durationDays),
    check("warranty_durations_price_not_negative", sql`${t.priceCents} >= 0`),
    check("warranty_durations_days_positive", sql`${t.durationDays} > 0`),
  ],
);

/**
 * Stock is a table of credentials. A credential moves available -> reserved (by an unpaid
 * order, until reserved_until) -> delivered, or back to available when a reservation expires.
 * A delivered credential that a warranty replacement took the place of becomes replaced: never sold again.
 * An option with N seats sells each account to N buyers: the account has one row per seat (same
 * username and password, seat 1..N), so every row is still claimed, delivered and replaced on its own.
 * An order line never holds more reserved rows than its quantity: a trigger refuses it (migration 0012).
 */
export const stockCredentials = pgTable(
  "stock_credentials",
  {
    id: id(),
    optionId: text("option_id")
      .notNull()
      .references(() => productOptions.id, { onDelete: "cascade" }),
    /**
     * The plain values of a row written before ADR 056, until the store encrypts it at upgrade (then null).
     * New rows never carry them.
     */
    username: text("username"),
    password: text("password"),
    /** Username and password, AES-256-GCM under the CREDENTIALS_KEY named by key_id (ADR 056). */
    secret: text("secret"),
    keyId: text("key_id"),
    /** HMAC of the username in lower case: staff's exact search. */
    usernameLookup: text("username_lookup"),
    /** HMAC of the account (username in any case, password exactly): duplicates and the seats of one account. */
    accountLookup: text("account_lookup"),
    status: text("status", { enum: ["available", "reserved", "delivered", "replaced", "void"] })
      .notNull()
      .default("available"),
    orderProductId: text("order_product_id"),
    reservedUntil: timestamp("reserved_until", { withTimezone: true }),
    /** Which seat of the account this row sells (1 for a private account). */
    seat: integer("seat").notNull().default(1),
    /** The label staff gave the import this credential came in with. */
    batchLabel: text("batch_label").notNull().default(""),
    createdAt: createdAt(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [
    index("stock_credentials_option_status_idx").on(t.optionId, t.status),
    index("stock_credentials_order_product_idx").on(t.orderProductId),
    /** Finding an imported line among the option's stock (duplicates are refused against it). */
    index("stock_credentials_option_username_idx").on(t.optionId, t.username),
    index("stock_credentials_option_account_lookup_idx").on(t.optionId, t.accountLookup),
    index("stock_credentials_option_username_lookup_idx").on(t.optionId, t.usernameLookup),
    /** What a rotation still has to re-encrypt, and (partial) what an upgrade still has to encrypt. */
    index("stock_credentials_key_idx").on(t.keyId),
    index("stock_credentials_plain_idx")
      .on(t.id)
      .where(sql`${t.secret} is null`),
    check(
      "stock_credentials_sealed_or_plain",
      sql`(${t.secret} is not null and ${t.keyId} is not null and ${t.accountLookup} is not null and ${t.usernameLookup} is not null) or (${t.username} is not null and ${t.password} is not null)`,
    ),
    check(
      "stock_credentials_reservation_has_order",
      sql`${t.status} = 'available' or ${t.status} = 'void' or ${t.orderProductId} is not null`,
    ),
  ],
);

// ---------------------------------------------------------------- carts and coupons

export const carts = pgTable("carts", {
  id: id(),
  userId: text("user_id")
    .notNull()
    .unique("carts_user_key")
    .references(() => users.id, { onDelete: "cascade" }),
  couponCode: text("coupon_code"),
  updatedAt: updatedAt(),
});

/** One line per option, as the spec removes lines by optionId. */
export const cartItems = pgTable(
  "cart_items",
  {
    cartId: text("cart_id")
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    optionId: text("option_id")
      .notNull()
      .references(() => productOptions.id, { onDelete: "cascade" }),
    durationDays: integer("duration_days").notNull(),
    quantity: integer("quantity").notNull(),
    addedAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.cartId, t.optionId] }),
    check("cart_items_quantity_positive", sql`${t.quantity} > 0`),
  ],
);

export const coupons = pgTable(
  "coupons",
  {
    id: id(),
    code: text("code").notNull(),
    kind: text("kind", { enum: COUPON_KINDS }).notNull(),
    /** Percent (1-100) for percent coupons, cents for fixed ones. */
    amount: integer("amount").notNull(),
    minAmountCents: integer("min_amount_cents").notNull().default(0),
    maxUses: integer("max_uses"),
    usedCount: integer("used_count").notNull().default(0),
    perCustomerLimit: integer("per_customer_limit"),
    /** A per-user coupon (the slots game issues these) only works for its owner. */
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    source: text("source", { enum: COUPON_SOURCES }).notNull().default("admin"),
    active: boolean("active").notNull().default(true),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("coupons_code_lower_key").on(sql`lower(${t.code})`),
    check("coupons_amount_positive", sql`${t.amount} > 0`),
    check("coupons_percent_at_most_100", sql`${t.kind} <> 'percent' or ${t.amount} <= 100`),
    check("coupons_uses_within_limit", sql`${t.maxUses} is null or ${t.usedCount} <= ${t.maxUses}`),
  ],
);

/** Optional restriction of a coupon to some products; none means any product. */
export const couponProducts = pgTable(
  "coupon_products",
  {
    couponId: text("coupon_id")
      .notNull()
      .references(() => coupons.id, { onDelete: "cascade" }),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.couponId, t.productId] })],
);

// ---------------------------------------------------------------- orders and delivery

export const orders = pgTable(
  "orders",
  {
    id: id(),
    /** null for an order made by redeeming a key without an account. */
    userId: text("user_id").references(() => users.id),
    email: text("email").notNull(),
    status: text("status", { enum: ORDER_STATUSES }).notNull().default("pending"),
    subtotalCents: integer("subtotal_cents").notNull(),
    discountCents: integer("discount_cents").notNull().default(0),
    priceCents: integer("price_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
    paymentMethod: text("payment_method").notNull(),
    couponId: text("coupon_id").references(() => coupons.id),
    message: text("message").notNull().default(""),
    source: text("source", { enum: ORDER_SOURCES }).notNull().default("checkout"),
    clientIp: text("client_ip"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
  },
  (t) => [
    index("orders_user_created_idx").on(t.userId, t.createdAt),
    index("orders_status_expires_idx").on(t.status, t.expiresAt),
    /** The back office's order list, newest first, and its date filter (ADR 028). */
    index("orders_created_idx").on(t.createdAt, t.id),
    /** The overview's sales by period and day. */
    index("orders_paid_idx").on(t.paidAt),
    /** The back office's search by the start of an email (ADR 028); text_pattern_ops serves LIKE 'x%'. */
    index("orders_email_lower_idx").using("btree", sql`lower(${t.email}) text_pattern_ops`),
    check("orders_price_not_negative", sql`${t.priceCents} >= 0 and ${t.discountCents} >= 0`),
    check(
      "orders_status_known",
      sql`${t.status} in (${sql.raw(ORDER_STATUSES.map((status) => `'${status}'`).join(", "))})`,
    ),
  ],
);

export const couponRedemptions = pgTable(
  "coupon_redemptions",
  {
    couponId: text("coupon_id")
      .notNull()
      .references(() => coupons.id, { onDelete: "cascade" }),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.couponId, t.orderId] }),
    index("coupon_redemptions_user_idx").on(t.couponId, t.userId),
  ],
);

/** A snapshot of what was bought, so later catalogue edits do not rewrite history. */
export const orderProducts = pgTable(
  "order_products",
  {
    id: id(),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: text("product_id")
      .notNull()
      .references(() => products.id),
    optionId: text("option_id")
      .notNull()
      .references(() => productOptions.id),
    title: text("title").notNull(),
    subtitle: text("subtitle").notNull().default(""),
    picture: text("picture").notNull().default(""),
    description: text("description").notNull().default(""),
    deliveryNotes: text("delivery_notes").notNull().default(""),
    fulfilMode: text("fulfil_mode", { enum: FULFIL_MODES }).notNull(),
    durationDays: integer("duration_days").notNull(),
    unitPriceCents: integer("unit_price_cents").notNull(),
    quantity: integer("quantity").notNull(),
    priceCents: integer("price_cents").notNull(),
    isReplacement: boolean("is_replacement").notNull().default(false),
    /** Refunded to the customer's balance by staff: its credentials are withdrawn from the customer's view. */
    refundedAt: timestamp("refunded_at", { withTimezone: true }),
    refundedCents: integer("refunded_cents").notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    index("order_products_order_idx").on(t.orderId),
    check("order_products_quantity_positive", sql`${t.quantity} > 0`),
  ],
);

/** The unique credential_id makes "delivered twice" impossible, whatever the code does. */
export const deliveredCredentials = pgTable(
  "delivered_credentials",
  {
    id: id(),
    orderProductId: text("order_product_id")
      .notNull()
      .references(() => orderProducts.id, { onDelete: "cascade" }),
    credentialId: text("credential_id")
      .notNull()
      .references(() => stockCredentials.id),
    position: integer("position").notNull(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }).notNull().defaultNow(),
    /** When the warranty on this credential ends; a replacement keeps the end of the one it replaces. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    replacedAt: timestamp("replaced_at", { withTimezone: true }),
    /** Replacements before this one in its line of succession: 0 for a credential bought. */
    replacementCount: integer("replacement_count").notNull().default(0),
  },
  (t) => [
    uniqueIndex("delivered_credentials_credential_key").on(t.credentialId),
    uniqueIndex("delivered_credentials_position_key").on(t.orderProductId, t.position),
  ],
);

// ---------------------------------------------------------------- payments and balance

export const paymentGateways = pgTable("payment_gateways", {
  name: text("name", { enum: ["coinbase", "shoppy", "stripe", "balance", "sandbox"] }).primaryKey(),
  label: text("label").notNull(),
  enabled: boolean("enabled").notNull().default(true),
  position: integer("position").notNull().default(0),
});

/** One attempt to collect money for an order or a balance top-up through a gateway. */
export const payments = pgTable(
  "payments",
  {
    id: id(),
    purpose: text("purpose", { enum: PAYMENT_PURPOSES }).notNull(),
    orderId: text("order_id").references(() => orders.id),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    gateway: text("gateway").notNull(),
    providerReference: text("provider_reference"),
    amountCents: integer("amount_cents").notNull(),
    currency: text("currency").notNull().default("USD"),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull().default("pending"),
    checkoutUrl: text("checkout_url"),
    /** Set when staff confirmed the payment by hand because the provider's webhook never came. */
    confirmedByUserId: text("confirmed_by_user_id").references(() => users.id, { onDelete: "set null" }),
    confirmationReason: text("confirmation_reason"),
    createdAt: createdAt(),
    paidAt: timestamp("paid_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("payments_gateway_reference_key").on(t.gateway, t.providerReference),
    index("payments_order_idx").on(t.orderId),
    check("payments_amount_positive", sql`${t.amountCents} > 0`),
    check("payments_order_purpose", sql`${t.purpose} <> 'order' or ${t.orderId} is not null`),
  ],
);

/** Provider event ids already handled: the primary key makes webhook processing idempotent. */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    gateway: text("gateway").notNull(),
    eventId: text("event_id").notNull(),
    paymentId: text("payment_id").references(() => payments.id),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.gateway, t.eventId] })],
);

/** Every change of a balance, with the balance after it; users.balance_cents is the running total. */
export const balanceLedger = pgTable(
  "balance_ledger",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type", { enum: BALANCE_ENTRY_TYPES }).notNull(),
    amountCents: integer("amount_cents").notNull(),
    balanceAfterCents: integer("balance_after_cents").notNull(),
    orderId: text("order_id").references(() => orders.id),
    paymentId: text("payment_id").references(() => payments.id),
    note: text("note").notNull().default(""),
    /** The staff member who made an adjustment or a refund by hand; the customer sees 'Admin'. */
    staffUserId: text("staff_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [
    index("balance_ledger_user_created_idx").on(t.userId, t.createdAt),
    check("balance_ledger_amount_positive", sql`${t.amountCents} > 0`),
    check("balance_ledger_balance_not_negative", sql`${t.balanceAfterCents} >= 0`),
  ],
);

// ---------------------------------------------------------------- after the sale

/**
 * Support tickets: a customer's (user_id), or a guest's from the contact form (guest_email, no account; ADR 039),
 * whose conversation is reached through the links in ticket_links.
 */
export const tickets = pgTable(
  "tickets",
  {
    id: id(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    /** A guest's address: where the links and staff answers are mailed. Null on a customer's ticket. */
    guestEmail: text("guest_email"),
    orderId: text("order_id").notNull(),
    subject: text("subject").notNull(),
    status: text("status", { enum: TICKET_STATUSES }).notNull().default("open"),
    /** True while the last message is the customer's: the staff inbox's "waiting for staff". */
    awaitingStaff: boolean("awaiting_staff").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("tickets_user_updated_idx").on(t.userId, t.updatedAt),
    index("tickets_status_updated_idx").on(t.status, t.updatedAt),
    check("tickets_customer_or_guest", sql`(${t.userId} is null) <> (${t.guestEmail} is null)`),
  ],
);

/**
 * The links that open a guest's conversation (ADR 039): one per mail that carried one, each a 128-bit random token
 * stored only as its SHA-256 hash, so a leaked table opens nothing and every mail's link keeps working.
 */
export const ticketLinks = pgTable(
  "ticket_links",
  {
    id: id(),
    ticketId: text("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("ticket_links_token_hash_key").on(t.tokenHash), index("ticket_links_ticket_idx").on(t.ticketId)],
);

export const ticketMessages = pgTable(
  "ticket_messages",
  {
    id: id(),
    ticketId: text("ticket_id")
      .notNull()
      .references(() => tickets.id, { onDelete: "cascade" }),
    authorUserId: text("author_user_id").references(() => users.id, { onDelete: "set null" }),
    fromStaff: boolean("from_staff").notNull().default(false),
    message: text("message").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("ticket_messages_ticket_idx").on(t.ticketId, t.createdAt)],
);

/**
 * Replacement requests (one delivered credential, by index) and other requests about an order line.
 * `answer` is staff's: the reason of a rejection, or the answer to an other request. At most one
 * pending replacement per credential, whatever the code does.
 */
export const requests = pgTable(
  "requests",
  {
    id: id(),
    kind: text("kind", { enum: REQUEST_KINDS }).notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    orderId: text("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    orderProductId: text("order_product_id")
      .notNull()
      .references(() => orderProducts.id, { onDelete: "cascade" }),
    credentialIndex: integer("credential_index"),
    /** The credential a replacement request is about. */
    deliveredCredentialId: text("delivered_credential_id").references(() => deliveredCredentials.id, {
      onDelete: "cascade",
    }),
    message: text("message").notNull(),
    status: text("status", { enum: REQUEST_STATUSES }).notNull().default("pending"),
    replacementCredentialId: text("replacement_credential_id").references(() => stockCredentials.id),
    answer: text("answer"),
    /** The staff account that resolved it; null for an automatic replacement or the sandbox stand-in. */
    resolvedBy: text("resolved_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
  },
  (t) => [
    index("requests_order_product_idx").on(t.orderProductId),
    index("requests_status_created_idx").on(t.status, t.createdAt),
    uniqueIndex("requests_replacement_credential_key").on(t.replacementCredentialId),
    uniqueIndex("requests_open_replacement_key")
      .on(t.deliveredCredentialId)
      .where(sql`${t.status} = 'pending'`),
    check(
      "requests_replacement_has_credential",
      sql`${t.kind} <> 'replacement' or ${t.deliveredCredentialId} is not null`,
    ),
  ],
);

export const feedback = pgTable(
  "feedback",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    orderProductId: text("order_product_id")
      .notNull()
      .references(() => orderProducts.id, { onDelete: "cascade" }),
    productId: text("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    optionId: text("option_id").references(() => productOptions.id, { onDelete: "set null" }),
    stars: integer("stars").notNull(),
    message: text("message").notNull(),
    visible: boolean("visible").notNull().default(true),
    /** The store's public reply, shown under the review as 'Admin'. */
    reply: text("reply"),
    repliedAt: timestamp("replied_at", { withTimezone: true }),
    repliedBy: text("replied_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("feedback_order_product_key").on(t.orderProductId),
    index("feedback_product_updated_idx").on(t.productId, t.updatedAt),
    check("feedback_stars_range", sql`${t.stars} between 1 and 5`),
  ],
);

/**
 * Redeem keys are stored hashed (SHA-256 of the normalised key); used_at makes them single use and
 * revoked_at retires an unused one (ADR 021). code_hint is the code's last 4 characters, for staff lists.
 */
export const redeemKeys = pgTable(
  "redeem_keys",
  {
    id: id(),
    keyHash: text("key_hash").notNull(),
    codeHint: text("code_hint").notNull().default(""),
    /** The keys generated together share one batch id. */
    batchId: text("batch_id"),
    optionId: text("option_id")
      .notNull()
      .references(() => productOptions.id),
    durationDays: integer("duration_days").notNull(),
    quantity: integer("quantity").notNull().default(1),
    usedAt: timestamp("used_at", { withTimezone: true }),
    orderId: text("order_id").references(() => orders.id),
    redeemedByUserId: text("redeemed_by_user_id").references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("redeem_keys_key_hash_key").on(t.keyHash),
    uniqueIndex("redeem_keys_order_key").on(t.orderId),
    index("redeem_keys_created_idx").on(t.createdAt),
    check("redeem_keys_quantity_positive", sql`${t.quantity} > 0`),
    check("redeem_keys_used_or_revoked", sql`${t.usedAt} is null or ${t.revokedAt} is null`),
  ],
);

/**
 * The slots game's spins, computed rather than granted by a job (ADR 022): on UTC day D a customer holds
 * min(3, D - counted_from) spins. Taking one moves counted_from to max(counted_from, D - 3) + 1, in one
 * conditional UPDATE, so concurrent spins cannot take the same one. No row yet: the account's creation day - 1.
 */
export const spinAccounts = pgTable("spin_accounts", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  countedFrom: date("counted_from", { mode: "string" }).notNull(),
});

/** Every spin with the reel stops drawn (0-127 each) and the coupon it issued. */
export const spins = pgTable(
  "spins",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    stops: integer("stops").array().notNull(),
    discountPercent: integer("discount_percent").notNull(),
    couponId: text("coupon_id")
      .notNull()
      .references(() => coupons.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (t) => [index("spins_user_idx").on(t.userId, t.createdAt)],
);

// ---------------------------------------------------------------- content

export const faqs = pgTable("faqs", {
  id: id(),
  question: text("question").notNull(),
  answer: text("answer").notNull(),
  position: integer("position").notNull().default(0),
});

export const announcements = pgTable("announcements", {
  id: id(),
  text: text("text").notNull(),
  active: boolean("active").notNull().default(true),
  createdAt: createdAt(),
});

export const socialLinks = pgTable("social_links", {
  id: id(),
  name: text("name").notNull(),
  link: text("link").notNull(),
  position: integer("position").notNull().default(0),
});

/** Legal and other documents, addressed by name (terms-of-service, privacy-policy). */
export const documents = pgTable("documents", {
  id: id(),
  name: text("name").notNull().unique("documents_name_key"),
  description: text("description").notNull(),
  updatedAt: updatedAt(),
});

/**
 * Idempotency-Key requests (order create, balance top-up): the primary key lets one request per key do
 * the work; its answer is kept so a repeat gets the same one. `status` is null while the first runs.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    /** "user:<id>", or "guest:<digest of the email>" for a guest checkout. */
    scope: text("scope").notNull(),
    route: text("route").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the validated request body: the same key with another body is refused. */
    fingerprint: text("fingerprint").notNull(),
    status: integer("status"),
    answer: jsonb("answer"),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.route, t.key] }), index("idempotency_keys_expires_idx").on(t.expiresAt)],
);

// ---------------------------------------------------------------- back office

/**
 * Every change staff make (ADR 023). Append-only: a trigger in the migration refuses UPDATE, DELETE
 * and TRUNCATE, so not even a bug in a service can rewrite what happened. The actor's email is kept
 * as it was, so a later rename or role change does not rewrite history either.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: id(),
    /** null for changes made outside a session (npm run admin:create). */
    actorUserId: text("actor_user_id").references(() => users.id),
    actorEmail: text("actor_email").notNull(),
    actorRole: text("actor_role").notNull(),
    /** What was done, `area.verb` (`staff.role`, `product.update`, `stock.import`). */
    action: text("action").notNull(),
    objectType: text("object_type").notNull(),
    objectId: text("object_id").notNull(),
    /** The object's name when it was changed, so the log reads without joins. */
    objectLabel: text("object_label").notNull().default(""),
    /** The changed fields only: `{ before: {...}, after: {...} }`; never a password or a credential. */
    changes: jsonb("changes").notNull(),
    ip: text("ip").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_created_idx").on(t.createdAt),
    index("audit_log_object_idx").on(t.objectType, t.objectId),
    index("audit_log_actor_idx").on(t.actorUserId, t.createdAt),
  ],
);

/**
 * Addresses refused at checkout: an exact address (`someone@example.com`) or a pattern with `*`
 * (`*@spam.example`, `bot*@example.com`), compared case-insensitively.
 */
export const emailBlocklist = pgTable(
  "email_blocklist",
  {
    id: id(),
    pattern: text("pattern").notNull(),
    note: text("note").notNull().default(""),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("email_blocklist_pattern_key").on(sql`lower(${t.pattern})`)],
);

/** Store-wide settings staff change (such as `staff.requireTwoFactor`), one JSON value per key. */
export const storeSettings = pgTable("store_settings", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: updatedAt(),
});

// ---------------------------------------------------------------- mail

/** Mail is written here in the same transaction as the change it reports, then sent and retried. */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: id(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    status: text("status", { enum: ["pending", "sent", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    /** The order a mail is about, so the back office lists the mails of an order. */
    orderId: text("order_id"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [index("mail_outbox_due_idx").on(t.status, t.nextAttemptAt), index("mail_outbox_order_idx").on(t.orderId)],
);

/**
 * The operator's notifications sent to NOTIFY_WEBHOOK_URL, written in the transaction of the event they
 * report and delivered like mail (claimed with SKIP LOCKED and a lease, retried with backoff). The
 * idempotency key travels with every attempt so the receiver can drop a repeat.
 */
export const notificationOutbox = pgTable(
  "notification_outbox",
  {
    id: id(),
    event: text("event").notNull(),
    idempotencyKey: text("idempotency_key").notNull(),
    payload: jsonb("payload").notNull(),
    status: text("status", { enum: ["pending", "sent", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: timestamp("sent_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("notification_outbox_idempotency_key").on(t.idempotencyKey),
    index("notification_outbox_due_idx").on(t.status, t.nextAttemptAt),
  ],
);
