import { asc, desc, eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { announcements, documents, faqs, socialLinks } from "../../db/schema";

/** The newest active announcement, or null when there is none. */
export async function readAnnouncement(db: Executor): Promise<{ text: string } | null> {
  const [row] = await db
    .select({ text: announcements.text })
    .from(announcements)
    .where(eq(announcements.active, true))
    .orderBy(desc(announcements.createdAt), desc(announcements.id))
    .limit(1);
  return row ?? null;
}

/** Each entry carries its id twice: `_id` as every other /v1 record, `id` as the spec's FAQ names it. */
export async function listFaqs(db: Executor) {
  const rows = await db
    .select({ _id: faqs.id, question: faqs.question, answer: faqs.answer })
    .from(faqs)
    .orderBy(asc(faqs.position), asc(faqs.id));
  return rows.map((row) => ({ _id: row._id, id: row._id, question: row.question, answer: row.answer }));
}

export async function listSocialLinks(db: Executor) {
  return db
    .select({ _id: socialLinks.id, name: socialLinks.name, link: socialLinks.link })
    .from(socialLinks)
    .orderBy(asc(socialLinks.position), asc(socialLinks.id));
}

/** All documents, or only the one with that name (an empty list when none has it). */
export async function listDocuments(db: Executor, name?: string) {
  return db
    .select({ _id: documents.id, name: documents.name, description: documents.description })
    .from(documents)
    .where(name === undefined ? undefined : eq(documents.name, name))
    .orderBy(asc(documents.name));
}
