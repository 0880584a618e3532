import { type SubmissionResult, getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import {
  ANNOUNCEMENT_MAX,
  announcementSchema,
  documentSchema,
  faqSchema,
  socialLinkSchema,
} from "../../contract/admin-content";
import { AdminHeading, AdminTime, secondaryButtonClass } from "~/components/admin/admin-ui";
import { OnceKeyField } from "~/components/admin/once-key";
import { ErrorList, FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import {
  type AdminContent,
  type OrderedList,
  addRow,
  deleteRow,
  editRow,
  moveRow,
  readContent,
  setAnnouncement,
  setDocument,
} from "~/lib/admin-content.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { newOnceKey, onceKeyOf } from "~/lib/once-key.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { useSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction = () => [{ title: "Content | Back office" }];

const CONTENT_PAGE = "/admin/content";

/** The announcement form: an unticked box is not sent, so here it means "do not show". */
const announcementFormSchema = announcementSchema.extend({
  active: z
    .boolean()
    .optional()
    .transform((active) => active ?? false),
});

/** Each list (FAQ, social links) with its schema, fields and words. */
const LISTS = {
  faq: { api: "faqs", schema: faqSchema, fields: ["question", "answer"], noun: "question" },
  link: { api: "social-links", schema: socialLinkSchema, fields: ["name", "link"], noun: "link" },
} as const satisfies Record<
  string,
  { api: OrderedList; schema: z.ZodTypeAny; fields: readonly string[]; noun: string }
>;
type ListKey = keyof typeof LISTS;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "content");
  return { content: await readContent(context, request), onceKey: newOnceKey() };
}

/** Which form an answer belongs to: several forms share this page, each shows only its own errors. */
type FormAnswer = { form: string; result: SubmissionResult<string[]> };

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "content");
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const rowId = String(formData.get("rowId") ?? "");
  const [listName, verb] = intent.split("-") as [string, string | undefined];

  if (intent === "announcement") {
    const submission = parseWithZod(formData, { schema: announcementFormSchema });
    if (submission.status !== "success") {
      return data<FormAnswer>({ form: "announcement", result: submission.reply() }, { status: 400 });
    }
    const answer = await setAnnouncement(context, request, submission.value);
    if (!answer.ok) {
      const { result, status } = replyFromApi(submission, answer, { fields: ["text", "active"] });
      return data<FormAnswer>({ form: "announcement", result }, { status });
    }
    return redirectWithSuccess(context, CONTENT_PAGE, answer.message);
  }

  if (intent === "document") {
    const name = String(formData.get("name") ?? "");
    const form = `document-${name}`;
    const submission = parseWithZod(formData, { schema: documentSchema });
    if (submission.status !== "success") return data<FormAnswer>({ form, result: submission.reply() }, { status: 400 });
    const answer = await setDocument(context, request, name, submission.value.text);
    if (!answer.ok) {
      const { result, status } = replyFromApi(submission, answer, { fields: ["text"] });
      return data<FormAnswer>({ form, result }, { status });
    }
    return redirectWithSuccess(context, CONTENT_PAGE, answer.message);
  }

  if (!(listName in LISTS)) return redirectWithError(context, CONTENT_PAGE, "Unknown change");
  const list = LISTS[listName as ListKey];
  if (verb === "up" || verb === "down") {
    const answer = await moveRow(context, request, list.api, rowId, verb);
    return answer.ok
      ? redirectWithSuccess(context, CONTENT_PAGE, answer.message)
      : redirectWithError(context, CONTENT_PAGE, answer.message);
  }
  if (verb === "delete") {
    const answer = await deleteRow(context, request, list.api, rowId);
    return answer.ok
      ? redirectWithSuccess(context, CONTENT_PAGE, answer.message)
      : redirectWithError(context, CONTENT_PAGE, answer.message);
  }
  const form = verb === "edit" ? `${listName}-edit-${rowId}` : `${listName}-add`;
  const submission = parseWithZod(formData, { schema: list.schema });
  if (submission.status !== "success") return data<FormAnswer>({ form, result: submission.reply() }, { status: 400 });
  const values = submission.value as Record<string, string>;
  const answer =
    verb === "edit"
      ? await editRow(context, request, list.api, rowId, values)
      : await addRow(context, request, list.api, values, onceKeyOf(formData));
  if (!answer.ok) {
    const { result, status } = replyFromApi(submission, answer, { fields: [...list.fields] });
    return data<FormAnswer>({ form, result }, { status });
  }
  return redirectWithSuccess(context, `${CONTENT_PAGE}#${listName}`, answer.message);
}

/** This form's last answer, if the last post was this form's. */
function useAnswerOf(form: string) {
  const answer = useActionData<typeof action>();
  return answer?.form === form ? answer.result : undefined;
}

const textareaClass =
  "w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600 font-[inherit]";
const sectionClass = "flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4";

function AnnouncementForm({ announcement }: { announcement: AdminContent["announcement"] }) {
  const [form, fields] = useSchemaForm(announcementFormSchema, {
    id: "announcement",
    lastResult: useAnswerOf("announcement"),
    defaultValue: { text: announcement.text, active: announcement.active ? "on" : undefined },
  });
  const { key, ...textProps } = getTextareaProps(fields.text);
  const { key: activeKey, ...activeProps } = getInputProps(fields.active, { type: "checkbox" });
  return (
    <section aria-labelledby="announcement-title" className={sectionClass}>
      <h2 id="announcement-title" className="text-lg font-bold">
        Announcement
      </h2>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
        <FormErrors form={form} />
        <label htmlFor={fields.text.id} className="text-sm font-semibold">
          Text shown on the home page (at most {ANNOUNCEMENT_MAX} characters)
        </label>
        <textarea key={key} {...textProps} rows={2} className={textareaClass} />
        <ErrorList id={fields.text.errorId} errors={fields.text.errors} />
        <label className="flex items-center gap-2">
          <input key={activeKey} {...activeProps} className="h-4 w-4" />
          Show it
        </label>
        <div>
          <SubmitButton intent="announcement" pendingText="Saving…">
            Save announcement
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

type Row = AdminContent["faqs"][number] | AdminContent["socialLinks"][number];

type Faq = AdminContent["faqs"][number];
type SocialLink = AdminContent["socialLinks"][number];

/** The buttons under a list's add or edit form. */
function RowSubmit({ listKey, row }: { listKey: ListKey; row?: Row }) {
  return (
    <div>
      <SubmitButton intent={`${listKey}-${row ? "edit" : "add"}`} pendingText="Saving…">
        {row ? "Save" : `Add ${LISTS[listKey].noun}`}
      </SubmitButton>
    </div>
  );
}

/** A question's add or edit form. */
function FaqForm({ row }: { row?: Faq }) {
  const formId = row ? `faq-edit-${row._id}` : "faq-add";
  const [form, fields] = useSchemaForm(faqSchema, { id: formId, lastResult: useAnswerOf(formId), defaultValue: row });
  const { key, ...answerProps } = getTextareaProps(fields.answer);
  const { onceKey } = useLoaderData<typeof loader>();
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
      <FormErrors form={form} />
      {row ? <input type="hidden" name="rowId" value={row._id} /> : <OnceKeyField value={onceKey} />}
      <TextField label="Question" meta={fields.question} type="text" autoComplete="off" />
      <label htmlFor={fields.answer.id} className="text-sm font-semibold">
        Answer
      </label>
      <textarea key={key} {...answerProps} rows={4} className={textareaClass} />
      <ErrorList id={fields.answer.errorId} errors={fields.answer.errors} />
      <RowSubmit listKey="faq" row={row} />
    </Form>
  );
}

/** A social link's add or edit form. */
function LinkForm({ row }: { row?: SocialLink }) {
  const formId = row ? `link-edit-${row._id}` : "link-add";
  const [form, fields] = useSchemaForm(socialLinkSchema, {
    id: formId,
    lastResult: useAnswerOf(formId),
    defaultValue: row,
  });
  const { onceKey } = useLoaderData<typeof loader>();
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
      <FormErrors form={form} />
      {row ? <input type="hidden" name="rowId" value={row._id} /> : <OnceKeyField value={onceKey} />}
      <TextField
        label="Name"
        meta={fields.name}
        type="text"
        autoComplete="off"
        hint="Discord, Telegram and X get their icon; any other name a globe"
      />
      <TextField label="Web address" meta={fields.link} type="text" autoComplete="off" placeholder="https://" />
      <RowSubmit listKey="link" row={row} />
    </Form>
  );
}

function RowForm({ listKey, row }: { listKey: ListKey; row?: Row }) {
  return listKey === "faq" ? (
    <FaqForm row={row as Faq | undefined} />
  ) : (
    <LinkForm row={row as SocialLink | undefined} />
  );
}

function RowButton({ listKey, row, verb, label }: { listKey: ListKey; row: Row; verb: string; label: string }) {
  const name = "question" in row ? row.question : row.name;
  return (
    <Form method="post">
      <input type="hidden" name="rowId" value={row._id} />
      <button
        type="submit"
        name="intent"
        value={`${listKey}-${verb}`}
        aria-label={`${label}: ${name}`}
        className={`${secondaryButtonClass} px-3 py-1 text-sm`}
      >
        {label}
      </button>
    </Form>
  );
}

function OrderedSection({ listKey, title, rows }: { listKey: ListKey; title: string; rows: Row[] }) {
  const list = LISTS[listKey];
  // A refused post shows its form again, opened, with the messages.
  const refusedForm = useActionData<typeof action>()?.form;
  return (
    <section id={listKey} aria-labelledby={`${listKey}-title`} className={sectionClass}>
      <h2 id={`${listKey}-title`} className="text-lg font-bold">
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className="text-slate-600">
          {listKey === "faq" ? "No question yet: the FAQ page shows the store's built-in answers." : "No link yet."}
        </p>
      ) : (
        <ol className="flex flex-col gap-2">
          {rows.map((row, index) => (
            <li key={row._id} className="rounded-lg border border-slate-200 p-3">
              <p className="font-semibold break-words">{"question" in row ? row.question : row.name}</p>
              <p className="line-clamp-2 text-sm break-all text-slate-600">{"answer" in row ? row.answer : row.link}</p>
              <div className="mt-2 flex flex-wrap items-start gap-2">
                {index > 0 && <RowButton listKey={listKey} row={row} verb="up" label="Move up" />}
                {index < rows.length - 1 && <RowButton listKey={listKey} row={row} verb="down" label="Move down" />}
                <RowButton listKey={listKey} row={row} verb="delete" label="Delete" />
              </div>
              <details className="mt-2" open={refusedForm === `${listKey}-edit-${row._id}`}>
                <summary className="cursor-pointer font-semibold text-brand-700">Edit</summary>
                <div className="mt-2">
                  <RowForm listKey={listKey} row={row} />
                </div>
              </details>
            </li>
          ))}
        </ol>
      )}
      <details className="rounded-lg bg-slate-50 p-3" open={rows.length === 0 || refusedForm === `${listKey}-add`}>
        <summary className="cursor-pointer font-semibold">Add a {list.noun}</summary>
        <div className="mt-2">
          <RowForm listKey={listKey} />
        </div>
      </details>
    </section>
  );
}

function DocumentForm({ document }: { document: AdminContent["documents"][number] }) {
  const formId = `document-${document.name}`;
  const [form, fields] = useSchemaForm(documentSchema, {
    id: formId,
    lastResult: useAnswerOf(formId),
    defaultValue: { text: document.text },
  });
  const { key, ...textProps } = getTextareaProps(fields.text);
  const refused = useActionData<typeof action>()?.form === formId;
  return (
    <details className="rounded-lg border border-slate-200 p-3" open={refused}>
      <summary className="cursor-pointer font-semibold">
        {document.title}{" "}
        <span className="font-normal text-slate-600">
          {document.updatedAt ? (
            <>
              (the store&apos;s own text, saved <AdminTime iso={document.updatedAt} />)
            </>
          ) : (
            "(the built-in text)"
          )}
        </span>
      </summary>
      <Form method="post" {...getFormProps(form)} className="mt-2 flex flex-col gap-2">
        <FormErrors form={form} />
        <input type="hidden" name="name" value={document.name} />
        <label htmlFor={fields.text.id} className="text-sm font-semibold">
          Text: paragraphs apart by a blank line, &quot;## &quot; starts a heading, &quot;- &quot; a list line. Empty
          brings back the built-in text.
        </label>
        <textarea key={key} {...textProps} rows={12} className={`${textareaClass} font-mono text-sm`} />
        <ErrorList id={fields.text.errorId} errors={fields.text.errors} />
        <div className="flex flex-wrap items-center gap-3">
          <SubmitButton intent="document" pendingText="Saving…">
            Save {document.title}
          </SubmitButton>
          <Link to={document.path} className="font-semibold text-brand-700 underline">
            View the page
          </Link>
        </div>
      </Form>
    </details>
  );
}

export default function ContentPage() {
  const { content } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Content">
        The home page&apos;s announcement, the FAQ, the footer&apos;s social links and the legal documents. Changes show
        in the shop at once.
      </AdminHeading>
      <AnnouncementForm announcement={content.announcement} />
      <OrderedSection listKey="faq" title="FAQ" rows={content.faqs} />
      <OrderedSection listKey="link" title="Social links" rows={content.socialLinks} />
      <section aria-labelledby="documents-title" className={sectionClass}>
        <h2 id="documents-title" className="text-lg font-bold">
          Legal documents
        </h2>
        {content.documents.map((document) => (
          <DocumentForm key={document.name} document={document} />
        ))}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
