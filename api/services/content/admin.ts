import { asc, desc, eq, max, sql } from "drizzle-orm";
import { CONTENT_MESSAGES, GATEWAY_NAMES, type GatewayName, LEGAL_DOCUMENTS } from "../../../contract/admin-content";
import type {
  AdminContent,
  AdminFaq,
  AdminGateway,
  AdminSocialLink,
  AnnouncementSet,
  DocumentSet,
  RowDeleted,
  RowMoved,
} from "../../../contract/answers/admin-content";
import type { Config } from "../../config";
import type { Database, Executor } from "../../db/client";
import { announcements, documents, faqs, paymentGateways, socialLinks } from "../../db/schema";
import { AppError, notFound } from "../../errors";
import { type StaffActor, recordAudit } from "../staff/audit";
import { SANDBOX_LABEL, paymentGatewaysFor } from "../payments/checkout";

/*
 * The store's content and gateways as staff edit them (ADR 031). Each change runs in one transaction
 * with its audit entry. The storefront reads the same tables through the public /v1 content reads, so
 * a change shows on the next page view (anonymous pages are cached for PAGE_CACHE_MS at most).
 */

export async function readAdminContent(db: Executor): Promise<AdminContent> {
  const [faqRows, linkRows, [announcement], documentRows] = await Promise.all([
    db
      .select({ _id: faqs.id, question: faqs.question, answer: faqs.answer })
      .from(faqs)
      .orderBy(asc(faqs.position), asc(faqs.id)),
    db
      .select({ _id: socialLinks.id, name: socialLinks.name, link: socialLinks.link })
      .from(socialLinks)
      .orderBy(asc(socialLinks.position), asc(socialLinks.id)),
    db
      .select({ text: announcements.text, active: announcements.active })
      .from(announcements)
      .orderBy(desc(announcements.createdAt), desc(announcements.id))
      .limit(1),
    db.select().from(documents),
  ]);
  return {
    faqs: faqRows,
    socialLinks: linkRows,
    announcement: announcement ?? { text: "", active: false },
    documents: LEGAL_DOCUMENTS.map((document) => {
      const row = documentRows.find((candidate) => candidate.name === document.name);
      return { ...document, text: row?.description ?? "", updatedAt: row?.updatedAt.toISOString() ?? null };
    }),
  };
}

// ---------------------------------------------------------------- ordered lists (FAQ, social links)

export type OrderedKind = "faq" | "socialLink";
/** Both lists have an id and a position, the only columns the shared code below touches. */
const orderedTable = (kind: OrderedKind) => (kind === "faq" ? faqs : (socialLinks as unknown as typeof faqs));
const auditTypeOf = (kind: OrderedKind) => (kind === "faq" ? "faq" : "social-link");
const missing = (kind: OrderedKind) =>
  notFound(kind === "faq" ? CONTENT_MESSAGES.faqNotFound : CONTENT_MESSAGES.socialLinkNotFound);

/**
 * Every change to an ordered list takes the list's table lock first, the lock a move takes: a move renumbers every
 * row, so an edit or delete that held its row and then waited for the table (or a move that held the table and
 * then waited for that row) would deadlock (40P01, a 500). One lock order, every writer queued behind the last.
 */
async function lockOrderedList(tx: Executor, kind: OrderedKind) {
  await tx.execute(sql`lock table ${orderedTable(kind)} in share row exclusive mode`);
}

/** A row's name for the log and its fields, locked for the change. */
async function lockedRow(tx: Executor, kind: OrderedKind, rowId: string) {
  if (kind === "faq") {
    const [row] = await tx.select().from(faqs).where(eq(faqs.id, rowId)).for("update");
    return (
      row && { label: row.question, position: row.position, fields: { question: row.question, answer: row.answer } }
    );
  }
  const [row] = await tx.select().from(socialLinks).where(eq(socialLinks.id, rowId)).for("update");
  return row && { label: row.name, position: row.position, fields: { name: row.name, link: row.link } };
}

export async function addFaq(
  db: Database,
  actor: StaffActor,
  input: { question: string; answer: string },
): Promise<AdminFaq> {
  return db.transaction(async (tx) => {
    await lockOrderedList(tx, "faq");
    const [{ last }] = await tx.select({ last: max(faqs.position) }).from(faqs);
    const [row] = await tx
      .insert(faqs)
      .values({ ...input, position: (last ?? -1) + 1 })
      .returning();
    await recordAudit(tx, actor, {
      action: "faq.create",
      objectType: "faq",
      objectId: row.id,
      objectLabel: row.question,
      after: { question: row.question, answer: row.answer },
    });
    return { _id: row.id, question: row.question, answer: row.answer };
  });
}

export async function editFaq(
  db: Database,
  actor: StaffActor,
  faqId: string,
  input: { question: string; answer: string },
): Promise<AdminFaq> {
  return db.transaction(async (tx) => {
    await lockOrderedList(tx, "faq");
    const [before] = await tx.select().from(faqs).where(eq(faqs.id, faqId)).for("update");
    if (!before) throw notFound(CONTENT_MESSAGES.faqNotFound);
    const [row] = await tx.update(faqs).set(input).where(eq(faqs.id, faqId)).returning();
    await recordAudit(tx, actor, {
      action: "faq.edit",
      objectType: "faq",
      objectId: faqId,
      objectLabel: row.question,
      before: { question: before.question, answer: before.answer },
      after: { question: row.question, answer: row.answer },
    });
    return { _id: row.id, question: row.question, answer: row.answer };
  });
}

export async function addSocialLink(
  db: Database,
  actor: StaffActor,
  input: { name: string; link: string },
): Promise<AdminSocialLink> {
  return db.transaction(async (tx) => {
    await lockOrderedList(tx, "socialLink");
    const [{ last }] = await tx.select({ last: max(socialLinks.position) }).from(socialLinks);
    const [row] = await tx
      .insert(socialLinks)
      .values({ ...input, position: (last ?? -1) + 1 })
      .returning();
    await recordAudit(tx, actor, {
      action: "social-link.create",
      objectType: "social-link",
      objectId: row.id,
      objectLabel: row.name,
      after: { name: row.name, link: row.link },
    });
    return { _id: row.id, name: row.name, link: row.link };
  });
}

export async function editSocialLink(
  db: Database,
  actor: StaffActor,
  linkId: string,
  input: { name: string; link: string },
): Promise<AdminSocialLink> {
  return db.transaction(async (tx) => {
    await lockOrderedList(tx, "socialLink");
    const [before] = await tx.select().from(socialLinks).where(eq(socialLinks.id, linkId)).for("update");
    if (!before) throw notFound(CONTENT_MESSAGES.socialLinkNotFound);
    const [row] = await tx.update(socialLinks).set(input).where(eq(socialLinks.id, linkId)).returning();
    await recordAudit(tx, actor, {
      action: "social-link.edit",
      objectType: "social-link",
      objectId: linkId,
      objectLabel: row.name,
      before: { name: before.name, link: before.link },
      after: { name: row.name, link: row.link },
    });
    return { _id: row.id, name: row.name, link: row.link };
  });
}

export async function deleteOrdered(
  db: Database,
  actor: StaffActor,
  kind: OrderedKind,
  rowId: string,
): Promise<RowDeleted> {
  const table = orderedTable(kind);
  return db.transaction(async (tx) => {
    await lockOrderedList(tx, kind);
    const row = await lockedRow(tx, kind, rowId);
    if (!row) throw missing(kind);
    await tx.delete(table).where(eq(table.id, rowId));
    await recordAudit(tx, actor, {
      action: `${auditTypeOf(kind)}.delete`,
      objectType: auditTypeOf(kind),
      objectId: rowId,
      objectLabel: row.label,
      before: row.fields,
    });
    return { label: row.label };
  });
}

/**
 * Swaps a row with its neighbour above or below and renumbers the list, so positions stay distinct.
 * The table is locked first: two staff moving rows at once end with a consistent order. At either
 * end nothing moves, and the answer says so.
 */
export async function moveOrdered(
  db: Database,
  actor: StaffActor,
  kind: OrderedKind,
  rowId: string,
  direction: "up" | "down",
): Promise<RowMoved> {
  const table = orderedTable(kind);
  return db.transaction(async (tx) => {
    await lockOrderedList(tx, kind);
    const row = await lockedRow(tx, kind, rowId);
    if (!row) throw missing(kind);
    // Ties (rows seeded with one position) are broken by id, as the public reads order them.
    const ids = (await tx.select({ id: table.id }).from(table).orderBy(asc(table.position), asc(table.id))).map(
      (entry) => entry.id,
    );
    const from = ids.indexOf(rowId);
    const to = direction === "up" ? from - 1 : from + 1;
    if (to < 0 || to >= ids.length) return { moved: false, label: row.label };
    [ids[from], ids[to]] = [ids[to], ids[from]];
    for (const [position, id] of ids.entries()) {
      await tx.update(table).set({ position }).where(eq(table.id, id));
    }
    await recordAudit(tx, actor, {
      action: `${auditTypeOf(kind)}.move`,
      objectType: auditTypeOf(kind),
      objectId: rowId,
      objectLabel: row.label,
      before: { position: from + 1 },
      after: { position: to + 1 },
    });
    return { moved: true, label: row.label };
  });
}

// ---------------------------------------------------------------- announcement and documents

/** Publishes a new announcement (the storefront shows the newest active one), or takes it down. */
export async function setAnnouncement(
  db: Database,
  actor: StaffActor,
  input: { text: string; active: boolean },
): Promise<AnnouncementSet> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select({ text: announcements.text, active: announcements.active })
      .from(announcements)
      .where(eq(announcements.active, true))
      .orderBy(desc(announcements.createdAt), desc(announcements.id))
      .limit(1);
    await tx.update(announcements).set({ active: false }).where(eq(announcements.active, true));
    const shown = input.active && input.text !== "";
    const [row] = shown
      ? await tx.insert(announcements).values({ text: input.text, active: true }).returning({ id: announcements.id })
      : [{ id: "announcement" }];
    await recordAudit(tx, actor, {
      action: shown ? "announcement.publish" : "announcement.remove",
      objectType: "announcement",
      objectId: row.id,
      objectLabel: shown ? input.text : (before?.text ?? ""),
      before: before ? { text: before.text, shown: true } : { text: null, shown: false },
      after: shown ? { text: input.text, shown: true } : { text: null, shown: false },
    });
    return { shown };
  });
}

/** Saves a legal document's text; an empty text removes the store's own, so the built-in one shows. */
export async function setDocument(db: Database, actor: StaffActor, name: string, text: string): Promise<DocumentSet> {
  const document = LEGAL_DOCUMENTS.find((candidate) => candidate.name === name);
  if (!document) throw notFound(CONTENT_MESSAGES.documentNotFound);
  const trimmed = text.replace(/\r\n?/g, "\n").trim();
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(documents).where(eq(documents.name, document.name)).for("update");
    if (trimmed === "") {
      await tx.delete(documents).where(eq(documents.name, document.name));
    } else {
      await tx
        .insert(documents)
        .values({ name: document.name, description: trimmed })
        .onConflictDoUpdate({ target: documents.name, set: { description: trimmed, updatedAt: new Date() } });
    }
    // The text itself can be long: the log keeps its length and first words.
    const summary = (value: string | undefined) =>
      value ? `${value.length} characters: ${value.slice(0, 80)}${value.length > 80 ? "…" : ""}` : "built-in text";
    await recordAudit(tx, actor, {
      action: "document.edit",
      objectType: "document",
      objectId: document.name,
      objectLabel: document.title,
      before: { text: summary(before?.description) },
      after: { text: summary(trimmed || undefined) },
    });
    return { title: document.title, builtIn: trimmed === "" };
  });
}

// ---------------------------------------------------------------- payment gateways

const GATEWAY_LABELS: Record<GatewayName, string> = {
  coinbase: "Crypto",
  shoppy: "Paypal",
  stripe: "Credit/Debit Card",
  balance: "Balance",
  sandbox: SANDBOX_LABEL,
};

export async function listAdminGateways(db: Executor, config: Config): Promise<AdminGateway[]> {
  const usable = paymentGatewaysFor(config);
  const rows = await db.select().from(paymentGateways);
  return GATEWAY_NAMES.map((name) => {
    const row = rows.find((candidate) => candidate.name === name);
    const configured = name === "balance" || usable.has(name);
    // A gateway without a row: checkout offers only the sandbox that way (listCheckoutGateways).
    const enabled = row ? row.enabled : name === "sandbox";
    return {
      name,
      label: name === "sandbox" ? SANDBOX_LABEL : (row?.label ?? GATEWAY_LABELS[name]),
      enabled,
      configured,
      offered: enabled && configured,
    };
  }).sort((a, b) => Number(b.configured) - Number(a.configured));
}

/** Turns a gateway on or off for checkout. Its keys stay in the environment: one without keys cannot be turned on. */
export async function switchGateway(
  db: Database,
  config: Config,
  actor: StaffActor,
  name: string,
  enabled: boolean,
): Promise<AdminGateway> {
  if (!(GATEWAY_NAMES as readonly string[]).includes(name)) throw notFound(CONTENT_MESSAGES.gatewayNotFound);
  const gatewayName = name as GatewayName;
  const before = (await listAdminGateways(db, config)).find((gateway) => gateway.name === gatewayName)!;
  if (enabled && !before.configured) {
    throw new AppError(409, CONTENT_MESSAGES.gatewayNotConfigured, {
      enabled: [CONTENT_MESSAGES.gatewayNotConfigured],
    });
  }
  await db.transaction(async (tx) => {
    const [{ last }] = await tx.select({ last: max(paymentGateways.position) }).from(paymentGateways);
    await tx
      .insert(paymentGateways)
      .values({ name: gatewayName, label: GATEWAY_LABELS[gatewayName], enabled, position: (last ?? -1) + 1 })
      .onConflictDoUpdate({ target: paymentGateways.name, set: { enabled } });
    await recordAudit(tx, actor, {
      action: enabled ? "gateway.enable" : "gateway.disable",
      objectType: "gateway",
      objectId: gatewayName,
      objectLabel: before.label,
      before: { enabled: before.enabled },
      after: { enabled },
    });
  });
  return (await listAdminGateways(db, config)).find((gateway) => gateway.name === gatewayName)!;
}
