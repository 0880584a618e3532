import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CATALOGUE_MESSAGES, PICTURE_MAX_BYTES } from "../../../contract/admin-catalogue";
import { PUBLIC_ID_PATTERN } from "../../../contract/browser/ids";
import { AdminHeading } from "~/components/admin/admin-ui";
import { ProductForm } from "~/components/admin/catalogue-forms";
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
import { BackLink, PageSection } from "~/components/admin/detail-ui";
import { NewOptionForm, OptionSection, PictureForm } from "./product-sections";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
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
import { formAction, intentOf, replyToForm, toastAnswer } from "~/lib/form-action.server";
import { useFormReply } from "~/lib/form-reply";
import { newOnceKey, onceKeyOf } from "~/lib/once-key.server";
import { postedForm } from "~/lib/posted-form.server";
import { redirectWithSuccess } from "~/lib/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: `${loaded?.product.title ?? "Product"} | Catalogue | Back office` },
];

function productIdOf(value: string | undefined): string {
  if (!value || !PUBLIC_ID_PATTERN.test(value)) throw new Response("Not found", { status: 404 });
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

const INTENTS = [
  "product-update",
  "picture",
  "option-create",
  "option-update",
  "duration-create",
  "duration-update",
  "duration-delete",
] as const;

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  const productId = productIdOf(params.productId);
  const here = `/admin/catalogue/${productId}`;
  const formData = await postedForm(request, PICTURE_MAX_BYTES);
  if (formData === "too large") {
    return replyToForm("picture", { status: "error", error: { picture: [CATALOGUE_MESSAGES.pictureTooLarge] } }, 400);
  }
  const optionId = String(formData.get("optionId") ?? "");
  const durationId = String(formData.get("durationId") ?? "");
  const backHere = (answer: { message: string }) => redirectWithSuccess(context, here, answer.message);
  const intent = intentOf(formData, INTENTS);
  switch (intent) {
    case "product-update":
      return formAction(formData, {
        form: `product-${productId}`,
        schema: productFormSchema,
        fields: PRODUCT_FIELDS,
        call: (value) => updateProduct(context, request, productId, productInputOf(value)),
        done: backHere,
      });
    case "picture":
      return formAction(formData, {
        form: "picture",
        schema: pictureFormSchema,
        call: async ({ picture }) => uploadPicture(context, request, productId, await picture.arrayBuffer()),
        done: backHere,
      });
    case "option-create":
    case "option-update":
      return formAction(formData, {
        form: intent === "option-create" ? "option-new" : `option-edit-${optionId}`,
        schema: optionFormSchema,
        fields: OPTION_FIELDS,
        call: (value) =>
          intent === "option-create"
            ? createOption(context, request, productId, optionInputOf(value), onceKeyOf(formData))
            : updateOption(context, request, optionId, optionInputOf(value)),
        // Back to the option saved, which a long product page may have far down.
        done: (answer) => redirectWithSuccess(context, `${here}#option-${answer.payload._id}`, answer.message),
      });
    case "duration-create":
    case "duration-update":
      return formAction(formData, {
        form: intent === "duration-create" ? `duration-new-${optionId}` : `duration-${durationId}`,
        schema: durationFormSchema,
        fields: DURATION_FIELDS,
        call: (value) =>
          intent === "duration-create"
            ? createDuration(context, request, optionId, durationInputOf(value), onceKeyOf(formData))
            : updateDuration(context, request, durationId, durationInputOf(value)),
        done: backHere,
      });
    case "duration-delete":
      return toastAnswer(context, here, await deleteDuration(context, request, durationId));
  }
}

/** Changes whenever the option or one of its durations is saved. */
const optionVersion = (option: AdminOption) =>
  JSON.stringify([option._id, option.title, option.seats, option.lowStockThreshold, option.active, option.durations]);

export default function ProductPage() {
  const { product, categories, onceKey } = useLoaderData<typeof loader>();
  const productForm = `product-${product._id}`;
  return (
    <div className="flex flex-col gap-6">
      <BackLink to="/admin/catalogue">← Catalogue</BackLink>
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
      <PageSection card title="Product">
        <ProductForm
          key={product.updatedAt}
          product={product}
          categories={categories}
          lastResult={useFormReply(productForm)?.result}
          intent="product-update"
          submitLabel="Save product"
        />
      </PageSection>
      <PictureForm key={product.picture} picture={product.picture} title={product.title} />
      <PageSection card title="Options and warranty prices">
        {product.options.length === 0 && (
          <p className="text-slate-700">No options yet: add one, then its warranty durations and stock.</p>
        )}
        {product.options.map((option) => (
          // A saved change renders the section afresh, so its forms close as they do without JavaScript.
          <OptionSection key={optionVersion(option)} option={option} onceKey={onceKey} />
        ))}
        <NewOptionForm key={product.options.length} onceKey={onceKey} open={product.options.length === 0} />
      </PageSection>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
