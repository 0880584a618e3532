import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { documentSchema } from "../../../contract/admin-content";
import { AdminHeading } from "~/components/admin/admin-ui";
import { AnnouncementForm, DocumentForm, OrderedSection } from "./content-forms";
import {
  CONTENT_INTENTS,
  CONTENT_LISTS,
  type ContentListKey,
  type ListVerb,
  announcementFormSchema,
} from "./content-schemas";
import { PageSection } from "~/components/admin/detail-ui";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { addRow, deleteRow, editRow, moveRow, readContent, setAnnouncement, setDocument } from "./content.server";
import { formAction, intentOf, toastAnswer } from "~/lib/form-action.server";
import { newOnceKey, onceKeyOf } from "~/lib/once-key.server";
import { redirectWithSuccess } from "~/lib/toast.server";

export const meta: MetaFunction = () => [{ title: "Content | Back office" }];

const CONTENT_PAGE = "/admin/content";

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "content");
  return { content: await readContent(context, request), onceKey: newOnceKey() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "content");
  const formData = await request.formData();
  const intent = intentOf(formData, CONTENT_INTENTS);
  const backTo = (url: string) => (answer: { message: string }) => redirectWithSuccess(context, url, answer.message);
  if (intent === "announcement") {
    return formAction(formData, {
      form: intent,
      schema: announcementFormSchema,
      call: (value) => setAnnouncement(context, request, value),
      done: backTo(CONTENT_PAGE),
    });
  }
  if (intent === "document") {
    const name = String(formData.get("name") ?? "");
    return formAction(formData, {
      form: `document-${name}`,
      schema: documentSchema,
      call: ({ text }) => setDocument(context, request, name, text),
      done: backTo(CONTENT_PAGE),
    });
  }
  const [listKey, verb] = intent.split("-") as [ContentListKey, ListVerb];
  const list = CONTENT_LISTS[listKey];
  const rowId = String(formData.get("rowId") ?? "");
  if (verb === "up" || verb === "down") {
    return toastAnswer(context, CONTENT_PAGE, await moveRow(context, request, list.api, rowId, verb));
  }
  if (verb === "delete") return toastAnswer(context, CONTENT_PAGE, await deleteRow(context, request, list.api, rowId));
  return formAction(formData, {
    form: verb === "edit" ? `${listKey}-edit-${rowId}` : `${listKey}-add`,
    schema: list.schema,
    call: (values: Record<string, string>) =>
      verb === "edit"
        ? editRow(context, request, list.api, rowId, values)
        : addRow(context, request, list.api, values, onceKeyOf(formData)),
    done: backTo(`${CONTENT_PAGE}#${listKey}`),
  });
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
      <OrderedSection listKey="faq" rows={content.faqs} />
      <OrderedSection listKey="link" rows={content.socialLinks} />
      <PageSection card title="Legal documents">
        {content.documents.map((document) => (
          <DocumentForm key={document.name} document={document} />
        ))}
      </PageSection>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
