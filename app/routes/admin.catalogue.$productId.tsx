import { type SubmissionResult, getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { CATALOGUE_MESSAGES, PICTURE_MAX_BYTES } from "../../contract/admin-catalogue";
import { PUBLIC_ID_PATTERN } from "../../contract/browser/ids";
import { ErrorList, FormErrors, SubmitButton } from "~/components/account/form-fields";
import { AdminHeading, AdminTable, secondaryButtonClass, td, th } from "~/components/admin/admin-ui";
import { DurationForm, OptionForm, ProductForm } from "~/components/admin/catalogue-forms";
import { ONCE_KEY_FIELD } from "~/components/admin/once-key";
import {
  DURATION_FIELDS,
  OPTION_FIELDS,
  PRODUCT_FIELDS,
  durationFormSchema,
  durationInputOf,
  optionFormSchema,
  optionInputOf,
  pictureFormSchema,
  productFormSchema,
  productInputOf,
} from "~/components/admin/catalogue-schemas";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { ProductImage } from "~/components/product-image";
import { requireStaff } from "~/lib/admin.server";
import { postedForm } from "~/lib/posted-form.server";
import {
  type AdminOption,
  createDuration,
  createOption,
  deleteDuration,
  listCategories,
  readProduct,
  updateDuration,
  updateOption,
  updateProduct,
  uploadPicture,
} from "~/lib/admin-catalogue.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { newOnceKey, onceKeyOf } from "~/lib/once-key.server";
import { formatUsd } from "~/lib/money";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { useSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: `${loaded?.product.title ?? "Product"} | Catalogue | Back office` },
];

const notFound = () => new Response("Not found", { status: 404 });

function productIdOf(value: string | undefined): string {
  if (!value || !PUBLIC_ID_PATTERN.test(value)) throw notFound();
  return value;
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  const productId = productIdOf(params.productId);
  const [product, categories] = await Promise.all([
    readProduct(context, request, productId),
    listCategories(context, request),
  ]);
  // One key serves every create form here: the API keeps keys apart per path (each option its own).
  return { product, categories, onceKey: newOnceKey() };
}

/** Which form an answer belongs to: several forms share this page, each shows only its own errors. */
type FormAnswer = { form: string; result: SubmissionResult<string[]> };

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  const productId = productIdOf(params.productId);
  const here = `/admin/catalogue/${productId}`;
  const formData = await postedForm(request, PICTURE_MAX_BYTES);
  if (formData === "too large") {
    const submission = parseWithZod(new FormData(), { schema: pictureFormSchema });
    return data<FormAnswer>(
      { form: "picture", result: submission.reply({ fieldErrors: { picture: [CATALOGUE_MESSAGES.pictureTooLarge] } }) },
      { status: 400 },
    );
  }
  const intent = String(formData.get("intent") ?? "");
  const optionId = String(formData.get("optionId") ?? "");
  const durationId = String(formData.get("durationId") ?? "");

  if (intent === "product-update") {
    const form = `product-${productId}`;
    const submission = parseWithZod(formData, { schema: productFormSchema });
    if (submission.status !== "success") return data<FormAnswer>({ form, result: submission.reply() }, { status: 400 });
    const answer = await updateProduct(context, request, productId, productInputOf(submission.value));
    if (!answer.ok) {
      const { result, status } = replyFromApi(submission, answer, { fields: PRODUCT_FIELDS });
      return data<FormAnswer>({ form, result }, { status });
    }
    return redirectWithSuccess(context, here, answer.message);
  }

  if (intent === "picture") {
    const submission = parseWithZod(formData, { schema: pictureFormSchema });
    if (submission.status !== "success") {
      return data<FormAnswer>({ form: "picture", result: submission.reply() }, { status: 400 });
    }
    const answer = await uploadPicture(context, request, productId, await submission.value.picture.arrayBuffer());
    if (!answer.ok) {
      const { result, status } = replyFromApi(submission, answer, { fields: ["picture"] });
      return data<FormAnswer>({ form: "picture", result }, { status });
    }
    return redirectWithSuccess(context, here, answer.message);
  }

  if (intent === "option-create" || intent === "option-update") {
    const form = intent === "option-create" ? "option-new" : `option-${optionId}`;
    const submission = parseWithZod(formData, { schema: optionFormSchema });
    if (submission.status !== "success") return data<FormAnswer>({ form, result: submission.reply() }, { status: 400 });
    const input = optionInputOf(submission.value);
    const answer =
      intent === "option-create"
        ? await createOption(context, request, productId, input, onceKeyOf(formData))
        : await updateOption(context, request, optionId, input);
    if (!answer.ok) {
      const { result, status } = replyFromApi(submission, answer, { fields: OPTION_FIELDS });
      return data<FormAnswer>({ form, result }, { status });
    }
    return redirectWithSuccess(context, `${here}#option-${answer.payload._id}`, answer.message);
  }

  if (intent === "duration-create" || intent === "duration-update") {
    const form = intent === "duration-create" ? `duration-new-${optionId}` : `duration-${durationId}`;
    const submission = parseWithZod(formData, { schema: durationFormSchema });
    if (submission.status !== "success") return data<FormAnswer>({ form, result: submission.reply() }, { status: 400 });
    const input = durationInputOf(submission.value);
    const answer =
      intent === "duration-create"
        ? await createDuration(context, request, optionId, input, onceKeyOf(formData))
        : await updateDuration(context, request, durationId, input);
    if (!answer.ok) {
      const { result, status } = replyFromApi(submission, answer, { fields: DURATION_FIELDS });
      return data<FormAnswer>({ form, result }, { status });
    }
    return redirectWithSuccess(context, here, answer.message);
  }

  if (intent === "duration-delete") {
    const answer = await deleteDuration(context, request, durationId);
    return answer.ok
      ? redirectWithSuccess(context, here, answer.message)
      : redirectWithError(context, here, answer.message);
  }

  return redirectWithError(context, here, "Unknown change");
}

function useAnswerOf(form: string) {
  const answer = useActionData<typeof action>();
  return answer?.form === form ? answer.result : undefined;
}

const sectionClass = "flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4";

/** Changes whenever the option or one of its durations is saved. */
const optionVersion = (option: AdminOption) =>
  JSON.stringify([option._id, option.title, option.seats, option.lowStockThreshold, option.active, option.durations]);
const summaryClass = "cursor-pointer font-semibold text-brand-700";

function PictureForm({ picture, title }: { picture: string; title: string }) {
  const lastResult = useAnswerOf("picture");
  const [form, fields] = useSchemaForm(pictureFormSchema, { id: "picture", lastResult });
  const { key, ...fileProps } = getInputProps(fields.picture, { type: "file" });
  return (
    <section aria-labelledby="picture-heading" className={sectionClass}>
      <h2 id="picture-heading" className="text-lg font-bold">
        Picture
      </h2>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <ProductImage src={picture} alt={title} className="aspect-video w-full rounded-lg sm:w-56" sizes="14rem" />
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="flex flex-col gap-2">
          <FormErrors form={form} />
          <label htmlFor={fields.picture.id} className="text-sm font-semibold">
            Upload a picture
          </label>
          <input
            key={key}
            {...fileProps}
            accept="image/png,image/jpeg,image/webp,image/gif"
            className="max-w-full text-sm"
          />
          <p className="text-xs text-slate-600">
            PNG, JPEG, WebP or GIF, up to {PICTURE_MAX_BYTES / 1024 / 1024} MB. Stored as WebP, cropped to 16:9, at
            phone and desktop sizes.
          </p>
          <ErrorList id={fields.picture.errorId} errors={fields.picture.errors} />
          <div>
            <SubmitButton intent="picture" pendingText="Uploading…">
              Upload picture
            </SubmitButton>
          </div>
        </Form>
      </div>
    </section>
  );
}

function DurationRow({ optionId, duration }: { optionId: string; duration: AdminOption["durations"][number] }) {
  const form = `duration-${duration._id}`;
  const answer = useAnswerOf(form);
  return (
    <tr>
      <td className={`${td} break-words`}>{duration.title}</td>
      <td className={td}>{duration.days}</td>
      <td className={td}>{formatUsd(duration.price)}</td>
      <td className={td}>
        <details open={!!answer} className="min-w-64">
          <summary className={summaryClass}>Edit</summary>
          <div className="mt-2 flex flex-col gap-3">
            <DurationForm
              id={form}
              duration={duration}
              lastResult={answer}
              intent="duration-update"
              submitLabel="Save warranty"
              hidden={{ durationId: duration._id, optionId }}
            />
            <Form method="post">
              <input type="hidden" name="durationId" value={duration._id} />
              <button type="submit" name="intent" value="duration-delete" className={secondaryButtonClass}>
                Delete warranty
              </button>
            </Form>
          </div>
        </details>
      </td>
    </tr>
  );
}

function OptionSection({ option, onceKey }: { option: AdminOption; onceKey: string }) {
  const editForm = `option-${option._id}`;
  const editAnswer = useAnswerOf(editForm);
  const newDurationForm = `duration-new-${option._id}`;
  const newDurationAnswer = useAnswerOf(newDurationForm);
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
      <details open={!!editAnswer}>
        <summary className={summaryClass}>Edit option</summary>
        <div className="mt-2">
          <OptionForm
            id={editForm}
            option={option}
            lastResult={editAnswer}
            intent="option-update"
            submitLabel="Save option"
            hidden={{ optionId: option._id }}
          />
        </div>
      </details>
      <AdminTable label={`Warranty durations of ${option.title}`}>
        <thead>
          <tr>
            <th className={th}>Warranty</th>
            <th className={th}>Days</th>
            <th className={th}>Price</th>
            <th className={th}>Change</th>
          </tr>
        </thead>
        <tbody>
          {option.durations.length === 0 && (
            <tr>
              <td className={td} colSpan={4}>
                No warranty durations yet: the option is not sold until it has one.
              </td>
            </tr>
          )}
          {option.durations.map((duration) => (
            <DurationRow key={duration._id} optionId={option._id} duration={duration} />
          ))}
        </tbody>
      </AdminTable>
      <details open={!!newDurationAnswer}>
        <summary className={summaryClass}>Add a warranty duration</summary>
        <div className="mt-2">
          <DurationForm
            id={newDurationForm}
            lastResult={newDurationAnswer}
            intent="duration-create"
            submitLabel="Add warranty"
            hidden={{ optionId: option._id, [ONCE_KEY_FIELD]: onceKey }}
          />
        </div>
      </details>
    </article>
  );
}

export default function ProductPage() {
  const { product, categories, onceKey } = useLoaderData<typeof loader>();
  const productForm = `product-${product._id}`;
  const productAnswer = useAnswerOf(productForm);
  const newOptionAnswer = useAnswerOf("option-new");
  return (
    <div className="flex flex-col gap-6">
      <p>
        <Link to="/admin/catalogue" className="font-semibold text-brand-700 underline">
          ← Catalogue
        </Link>
      </p>
      <AdminHeading title={product.title}>
        {product.active ? (
          <>
            Visible in the shop:{" "}
            <Link to={`/shop/${product._id}`} className="font-semibold text-brand-700 underline">
              open its page
            </Link>
          </>
        ) : (
          "Hidden from the shop."
        )}
      </AdminHeading>

      <section aria-labelledby="product-heading" className={sectionClass}>
        <h2 id="product-heading" className="text-lg font-bold">
          Product
        </h2>
        <ProductForm
          key={product.updatedAt}
          product={product}
          categories={categories}
          lastResult={productAnswer}
          intent="product-update"
          submitLabel="Save product"
        />
      </section>

      <PictureForm key={product.picture} picture={product.picture} title={product.title} />

      <section aria-labelledby="options-heading" className={sectionClass}>
        <h2 id="options-heading" className="text-lg font-bold">
          Options and warranty prices
        </h2>
        {product.options.length === 0 && (
          <p className="text-slate-700">No options yet: add one, then its warranty durations and stock.</p>
        )}
        {product.options.map((option) => (
          // A saved change renders the section afresh, so its forms close as they do without JavaScript.
          <OptionSection key={optionVersion(option)} option={option} onceKey={onceKey} />
        ))}
        <details key={product.options.length} open={!!newOptionAnswer || product.options.length === 0}>
          <summary className={summaryClass}>New option</summary>
          <div className="mt-2">
            <OptionForm
              id="option-new"
              lastResult={newOptionAnswer}
              intent="option-create"
              submitLabel="Add option"
              hidden={{ [ONCE_KEY_FIELD]: onceKey }}
            />
          </div>
        </details>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
