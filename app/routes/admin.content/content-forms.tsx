import type { FieldMetadata } from "@conform-to/react";
import { Link, useLoaderData } from "@remix-run/react";
import { ANNOUNCEMENT_MAX, documentSchema } from "../../../contract/admin-content";
import { TextField } from "~/components/account/form-fields";
import { AdminForm, CheckboxField, TextAreaField, textareaClass } from "~/components/admin/admin-fields";
import { AdminTime } from "~/components/admin/admin-ui";
import {
  CONTENT_LISTS,
  type ContentListKey,
  type ContentRow,
  announcementFormSchema,
  rowName,
  rowText,
} from "./content-schemas";
import { CommandForm, PageSection } from "~/components/admin/detail-ui";
import { ONCE_KEY_FIELD } from "~/lib/once-key";
import type { AdminContent } from "./content.server";
import { useFormReply } from "~/lib/form-reply";
import { useRepliedSchemaForm, useSchemaForm } from "~/lib/use-schema-form";

/* The forms of the back office's content page: the announcement, the ordered lists, the legal documents. */

export function AnnouncementForm({ announcement }: { announcement: AdminContent["announcement"] }) {
  const [form, fields] = useRepliedSchemaForm(announcementFormSchema, "announcement", {
    defaultValue: { text: announcement.text, active: announcement.active ? "on" : undefined },
  });
  return (
    <PageSection card title="Announcement">
      <AdminForm form={form} intent="announcement" submitLabel="Save announcement">
        <TextAreaField
          meta={fields.text}
          label={`Text shown on the home page (at most ${ANNOUNCEMENT_MAX} characters)`}
          rows={2}
        />
        <CheckboxField meta={fields.active} label="Show it" className="flex items-center gap-2" />
      </AdminForm>
    </PageSection>
  );
}

/** A list row's add form (no row) or edit form, its fields as the list describes them. */
function RowForm({ listKey, row }: { listKey: ContentListKey; row?: ContentRow }) {
  const list = CONTENT_LISTS[listKey];
  const id = row ? `${listKey}-edit-${row._id}` : `${listKey}-add`;
  const [form, fields] = useSchemaForm(list.schema, { id, lastResult: useFormReply(id)?.result, defaultValue: row });
  const { onceKey } = useLoaderData<{ onceKey: string }>();
  const metaOf = (name: string) => (fields as unknown as Record<string, FieldMetadata<string>>)[name];
  return (
    <AdminForm
      form={form}
      intent={`${listKey}-${row ? "edit" : "add"}`}
      submitLabel={row ? "Save" : `Add ${list.noun}`}
      hidden={row ? { rowId: row._id } : { [ONCE_KEY_FIELD]: onceKey }}
    >
      {list.fields.map((field: { name: string; label: string; hint?: string; placeholder?: string; rows?: number }) =>
        field.rows ? (
          <TextAreaField key={field.name} meta={metaOf(field.name)} label={field.label} rows={field.rows} />
        ) : (
          <TextField
            key={field.name}
            meta={metaOf(field.name)}
            label={field.label}
            hint={field.hint}
            placeholder={field.placeholder}
            type="text"
            autoComplete="off"
          />
        ),
      )}
    </AdminForm>
  );
}

export function OrderedSection({ listKey, rows }: { listKey: ContentListKey; rows: ContentRow[] }) {
  const list = CONTENT_LISTS[listKey];
  // A refused post shows its form again, opened, with the messages.
  const refusedForm = useFormReply()?.form;
  const button = (row: ContentRow, verb: string, label: string) => (
    <CommandForm
      intent={`${listKey}-${verb}`}
      label={label}
      hidden={{ rowId: row._id }}
      ariaLabel={`${label}: ${rowName(row)}`}
      small
    />
  );
  return (
    <PageSection card id={listKey} title={list.title}>
      {rows.length === 0 ? (
        <p className="text-slate-600">{list.empty}</p>
      ) : (
        <ol className="flex flex-col gap-2">
          {rows.map((row, index) => (
            <li key={row._id} className="rounded-lg border border-slate-200 p-3">
              <p className="font-semibold break-words">{rowName(row)}</p>
              <p className="line-clamp-2 text-sm break-all text-slate-600">{rowText(row)}</p>
              <div className="mt-2 flex flex-wrap items-start gap-2">
                {index > 0 && button(row, "up", "Move up")}
                {index < rows.length - 1 && button(row, "down", "Move down")}
                {button(row, "delete", "Delete")}
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
    </PageSection>
  );
}

export function DocumentForm({ document }: { document: AdminContent["documents"][number] }) {
  const id = `document-${document.name}`;
  const lastResult = useFormReply(id)?.result;
  const [form, fields] = useSchemaForm(documentSchema, { id, lastResult, defaultValue: { text: document.text } });
  return (
    <details className="rounded-lg border border-slate-200 p-3" open={lastResult !== undefined}>
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
      <AdminForm
        form={form}
        intent="document"
        submitLabel={`Save ${document.title}`}
        hidden={{ name: document.name }}
        className="mt-2 flex flex-col gap-2"
        beside={
          <Link to={document.path} className="font-semibold text-brand-700 underline">
            View the page
          </Link>
        }
      >
        <TextAreaField
          meta={fields.text}
          label='Text: paragraphs apart by a blank line, "## " starts a heading, "- " a list line. Empty brings back the built-in text.'
          rows={12}
          inputClassName={`${textareaClass} font-mono text-sm`}
        />
      </AdminForm>
    </details>
  );
}
