import { getInputProps } from "@conform-to/react";
import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { PICTURE_MAX_BYTES } from "../../../contract/admin-catalogue";
import { AdminForm, Field } from "~/components/admin/admin-fields";
import { DurationForm, OptionForm } from "~/components/admin/catalogue-forms";
import { pictureFormSchema } from "~/components/admin/catalogue-schemas";
import { CommandForm, PageSection, RecordTable, byId } from "~/components/admin/detail-ui";
import { ONCE_KEY_FIELD } from "~/lib/once-key";
import { ProductImage } from "~/components/product-image";
import type { AdminOption } from "~/lib/admin-catalogue.server";
import { useFormReply } from "~/lib/form-reply";
import { formatUsd } from "~/lib/money";
import { useRepliedSchemaForm } from "~/lib/use-schema-form";

/*
 * The parts of a product's back-office page below its own form: the picture, and each option with its warranty
 * durations. Every form is closed until opened, and opens again with its reply when the action refused it.
 */

/** A form behind a summary line, open when its reply came back (or when `open` says so). */
function Opening({
  summary,
  open = false,
  className,
  children,
}: {
  summary: string;
  open?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <details open={open} className={className}>
      <summary className="cursor-pointer font-semibold text-brand-700">{summary}</summary>
      <div className="mt-2 flex flex-col gap-3">{children}</div>
    </details>
  );
}

export function PictureForm({ picture, title }: { picture: string; title: string }) {
  const [form, fields] = useRepliedSchemaForm(pictureFormSchema, "picture");
  const { key, ...fileProps } = getInputProps(fields.picture, { type: "file" });
  return (
    <PageSection card title="Picture">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <ProductImage
          src={picture}
          alt={title}
          className="aspect-video w-full shrink-0 self-start rounded-lg sm:w-56"
          sizes="14rem"
        />
        <AdminForm
          form={form}
          intent="picture"
          submitLabel="Upload picture"
          pendingText="Uploading…"
          encType="multipart/form-data"
        >
          <Field
            meta={fields.picture}
            label="Upload a picture"
            hint={`PNG, JPEG, WebP or GIF, up to ${PICTURE_MAX_BYTES / 1024 / 1024} MB. Stored as WebP, cropped to 16:9, at phone and desktop sizes.`}
          >
            <input
              key={key}
              {...fileProps}
              accept="image/png,image/jpeg,image/webp,image/gif"
              className="max-w-full text-sm"
            />
          </Field>
        </AdminForm>
      </div>
    </PageSection>
  );
}

type Duration = AdminOption["durations"][number];

function DurationEdit({ optionId, duration }: { optionId: string; duration: Duration }) {
  const id = `duration-${duration._id}`;
  const lastResult = useFormReply(id)?.result;
  return (
    <Opening summary="Edit" open={!!lastResult} className="min-w-64">
      <DurationForm
        id={id}
        duration={duration}
        lastResult={lastResult}
        intent="duration-update"
        submitLabel="Save warranty"
        hidden={{ durationId: duration._id, optionId }}
      />
      <CommandForm intent="duration-delete" label="Delete warranty" hidden={{ durationId: duration._id }} />
    </Opening>
  );
}

export function OptionSection({ option, onceKey }: { option: AdminOption; onceKey: string }) {
  // The article keeps `option-<id>` (the anchor a save returns to); its form needs an id of its own.
  const editId = `option-edit-${option._id}`;
  const editResult = useFormReply(editId)?.result;
  const newDurationId = `duration-new-${option._id}`;
  const newDurationResult = useFormReply(newDurationId)?.result;
  return (
    <article id={`option-${option._id}`} className="flex flex-col gap-3 rounded-lg border border-slate-200 p-3">
      <header className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-bold break-words">
          {option.title}
          {!option.active && <span className="ml-2 text-sm font-normal text-slate-600">(not on sale)</span>}
        </h3>
        <p className="text-sm text-slate-700">
          {option.freeSeats} free {option.freeSeats === 1 ? "seat" : "seats"} · {option.seats}{" "}
          {option.seats === 1 ? "buyer" : "buyers"} per account
          {option.lowStockThreshold > 0 && ` · low under ${option.lowStockThreshold}`} ·{" "}
          <Link to={`/admin/stock/${option._id}`} className="font-semibold text-brand-700 underline">
            Stock
          </Link>
        </p>
      </header>
      <Opening summary="Edit option" open={!!editResult}>
        <OptionForm
          id={editId}
          option={option}
          lastResult={editResult}
          intent="option-update"
          submitLabel="Save option"
          hidden={{ optionId: option._id }}
        />
      </Opening>
      <RecordTable
        label={`Warranty durations of ${option.title}`}
        rows={option.durations}
        rowKey={byId}
        empty="No warranty durations yet: the option is not sold until it has one."
        emptyInTable
        columns={[
          { header: "Warranty", className: "break-words", cell: (duration) => duration.title },
          { header: "Days", cell: (duration) => duration.days },
          { header: "Price", cell: (duration) => formatUsd(duration.price) },
          { header: "Change", cell: (duration) => <DurationEdit optionId={option._id} duration={duration} /> },
        ]}
      />
      <Opening summary="Add a warranty duration" open={!!newDurationResult}>
        <DurationForm
          id={newDurationId}
          lastResult={newDurationResult}
          intent="duration-create"
          submitLabel="Add warranty"
          hidden={{ optionId: option._id, [ONCE_KEY_FIELD]: onceKey }}
        />
      </Opening>
    </article>
  );
}

/** Open at once on a product without options: adding one is the next step. */
export function NewOptionForm({ onceKey, open }: { onceKey: string; open: boolean }) {
  const lastResult = useFormReply("option-new")?.result;
  return (
    <Opening summary="New option" open={!!lastResult || open}>
      <OptionForm
        id="option-new"
        lastResult={lastResult}
        intent="option-create"
        submitLabel="Add option"
        hidden={{ [ONCE_KEY_FIELD]: onceKey }}
      />
    </Opening>
  );
}
