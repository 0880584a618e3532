import { Form, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { OTHER_REQUEST_PLACEHOLDER, REPLACEMENT_MESSAGE_PLACEHOLDER } from "../../../contract/browser/request";
import { FormErrors, SubmitButton } from "../account/form-fields";
import { MessageField } from "../tickets/ticket-fields";
import { RouteDialog } from "../dialog";
import { HumanCheck } from "../human-check";
import { CopyField } from "./copy-field";
import { parseCredentials } from "./order-product-card";
import { AccessNote, delivered, orderHref, OtherRequests, shownDate, StatusBadge } from "./request-parts";
import { OTHER_REQUEST_FORM, REPLACEMENT_FORM } from "~/lib/request-form-ids";
import type { otherRequestFormSchema, replacementFormSchema } from "~/lib/request-schemas";
import { FORM_CONSTRAINTS } from "~/lib/request-schemas.constraints";
import type { HumanCheckChallenge } from "~/lib/accounts.server";
import type { OrderPanel, OrderRequestsData } from "~/lib/order-requests.server";
import type { Order, OrderProduct } from "~/lib/orders.server";
import type { OrderRequest } from "~/lib/requests.server";
import { useFormReply, useRepliedServerForm } from "~/lib/form-reply";
import { type FormMeta, getFormProps, useServerForm } from "~/lib/server-form";
import type { z } from "zod";

/*
 * The panel the order's URL opens (ADR 020) as a dialog: a line's information, its replacement history, the
 * replacement form or the question form. Without JavaScript the dialog is a plain section of the page.
 */

/** A request form: it posts back to the open panel's address, so a refusal shows in the same dialog. */
function RequestForm({ form, intent, children }: { form: FormMeta; intent: string; children: ReactNode }) {
  const location = useLocation();
  return (
    <Form
      method="post"
      action={location.pathname + location.search}
      preventScrollReset
      {...getFormProps(form)}
      className="flex flex-col gap-2"
    >
      <FormErrors form={form} />
      <input type="hidden" name="intent" value={intent} />
      {children}
    </Form>
  );
}

function LineFields({ product }: { product: OrderProduct }) {
  return (
    <>
      <input type="hidden" name="productId" value={product.product} />
      <input type="hidden" name="productOptionId" value={product.productOption} />
    </>
  );
}

function ReplacementForm({
  product,
  index,
  requests,
}: {
  product: OrderProduct;
  index: number;
  requests: OrderRequestsData;
}) {
  const refused = useFormReply<HumanCheckChallenge | null>(REPLACEMENT_FORM);
  const [form, fields] = useServerForm<z.input<typeof replacementFormSchema>>(FORM_CONSTRAINTS.replacementRequest, {
    id: REPLACEMENT_FORM,
    lastResult: refused?.result,
  });
  const humanCheck = refused ? (refused.extra ?? null) : requests.humanCheck;
  return (
    <RequestForm form={form} intent="replace">
      <input type="hidden" name="index" value={index} />
      <LineFields product={product} />
      <MessageField
        meta={fields.message}
        label="What is wrong with this account?"
        placeholder={REPLACEMENT_MESSAGE_PLACEHOLDER}
      />
      {/* A new challenge after a refusal remounts the check, so the spent token is not sent again. */}
      <HumanCheck key={humanCheck?.token ?? "none"} challenge={humanCheck} />
      <div>
        <SubmitButton pendingText="Sending…">Request Replacement</SubmitButton>
      </div>
    </RequestForm>
  );
}

function OtherRequestForm({ product }: { product: OrderProduct }) {
  const [form, fields] = useRepliedServerForm<z.input<typeof otherRequestFormSchema>>(
    FORM_CONSTRAINTS.otherRequest,
    OTHER_REQUEST_FORM,
  );
  return (
    <RequestForm form={form} intent="ask">
      <LineFields product={product} />
      <MessageField meta={fields.message} label="Your question" placeholder={OTHER_REQUEST_PLACEHOLDER} />
      <div>
        <SubmitButton pendingText="Sending…">Send Request</SubmitButton>
      </div>
    </RequestForm>
  );
}

function History({ requests }: { requests: OrderRequest[] }) {
  if (requests.length === 0) return <p className="text-slate-600">No history found</p>;
  return (
    <ol className="flex flex-col gap-3" aria-label="Replacement requests">
      {requests.map((request) => (
        <li
          key={request._id}
          className="flex flex-col gap-2 rounded-lg border border-slate-200 p-3"
          data-testid="replacement-request"
        >
          <p className="flex flex-wrap items-center gap-2 text-sm">
            <StatusBadge status={request.status} />
            <span className="text-slate-600">Requested {shownDate(request.createdAt)}</span>
          </p>
          <p className="whitespace-pre-wrap break-words text-sm">{request.message}</p>
          {request.status === "completed" &&
            parseCredentials(request.creds).map((credential, position) => (
              <div key={position} className="flex flex-col gap-2">
                <p className="text-sm font-semibold">New credentials</p>
                {credential.username && <CopyField label="Username" value={credential.username} />}
                {credential.password && <CopyField label="Password" value={credential.password} />}
              </div>
            ))}
          {request.status === "rejected" && request.reason && (
            <p className="whitespace-pre-wrap break-words rounded-md bg-red-50 p-2 text-sm text-red-900">
              <span className="font-semibold">Reason: </span>
              {request.reason}
            </p>
          )}
        </li>
      ))}
    </ol>
  );
}

function Information({ order, product }: { order: Order; product: OrderProduct }) {
  const expiry = order.products
    .filter((line) => line.productOption === product.productOption)
    .map((line) => line.expiry)
    .filter((value): value is string => value !== null)
    .sort()
    .at(-1);
  const section = (title: string, body: ReactNode) => (
    <section className="flex flex-col gap-1">
      <h3 className="text-sm font-semibold">{title}</h3>
      {body}
    </section>
  );
  return (
    <div className="flex flex-col gap-4 text-sm">
      {section(
        "Warranty",
        <p>
          {product.duration} days.{" "}
          {expiry && delivered(order) ? (
            <>The warranty ends on {shownDate(expiry)}; a replacement keeps that date.</>
          ) : (
            "It starts when the order is delivered."
          )}
        </p>,
      )}
      {delivered(order) &&
        product.deliveryNotes &&
        section("Delivery information", <p className="whitespace-pre-line">{product.deliveryNotes}</p>)}
      {product.description && section("Description", <p className="whitespace-pre-line">{product.description}</p>)}
    </div>
  );
}

const TITLES: Record<OrderPanel["show"], string> = {
  info: "Information",
  history: "Replacement history",
  replace: "Request replacement",
  ask: "Ask a question",
};

/** The panel the URL names, as a dialog over the order (a plain page section without JavaScript). */
export function OrderRequestDialog({
  order,
  panel,
  requests,
}: {
  order: Order;
  panel: OrderPanel;
  requests: OrderRequestsData;
}) {
  const product =
    order.products.find((line) => line.productOption === panel.line && !line.isReplacement) ??
    order.products.find((line) => line.productOption === panel.line)!;
  const history = requests.histories[panel.line] ?? [];
  const owner = requests.viewer === "owner";
  let body: ReactNode;
  if (panel.show === "info") body = <Information order={order} product={product} />;
  else if (!owner) body = <AccessNote order={order} requests={requests} />;
  else if (panel.show === "history")
    body = <History requests={history.filter((request) => request.kind === "replacement")} />;
  else if (panel.show === "ask")
    body = (
      <div className="flex flex-col gap-4">
        <p className="text-sm text-slate-600">Anything else about this product? We answer here within 24 hours.</p>
        <OtherRequests requests={history.filter((request) => request.kind === "other")} />
        <OtherRequestForm product={product} />
      </div>
    );
  else if (panel.index === null)
    body = <p className="text-slate-600">Choose the credential to replace on the order.</p>;
  else
    body = (
      <div className="flex flex-col gap-4">
        <p className="text-sm text-slate-600">
          Tell us what happens when you sign in. When we have stock, the new credentials appear on the order at once;
          otherwise our team delivers them, usually within 24 hours, and emails you.
        </p>
        <ReplacementForm product={product} index={panel.index} requests={requests} />
      </div>
    );
  return (
    <RouteDialog title={`${TITLES[panel.show]}: ${product.title}`} closeHref={orderHref(order._id)}>
      {body}
    </RouteDialog>
  );
}
