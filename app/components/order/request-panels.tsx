import { Form, Link, useActionData, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { isPaidOrderStatus } from "../../../contract/browser/order";
import { OTHER_REQUEST_PLACEHOLDER, REPLACEMENT_MESSAGE_PLACEHOLDER } from "../../../contract/request";
import { ErrorList, FormErrors, SubmitButton } from "../account/form-fields";
import { RouteDialog } from "../dialog";
import { HumanCheck } from "../human-check";
import { CopyField } from "./copy-field";
import { parseCredentials } from "./order-product-card";
import type { OrderPanel, OrderRequestsData, RequestRefusal } from "./requests.server";
import type { otherRequestFormSchema, replacementFormSchema } from "./request-schemas";
import type { Order, OrderProduct } from "~/lib/orders.server";
import type { OrderRequest } from "~/lib/requests.server";
import { FORM_CONSTRAINTS } from "./request-schemas.constraints";
import { getFormProps, getTextareaProps, useServerForm } from "~/lib/server-form";
import type { z } from "zod";

/*
 * Warranty replacements and other requests on /find-order (ADR 020): the Replace control of each
 * credential, each line's request links and answers, and the panels the URL opens as dialogs
 * (information, replacement history, request replacement, ask a question). Every panel is a link and
 * every form a plain post, so all of it works without JavaScript.
 */

const LINK = "font-semibold text-brand-700 underline";
const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const shownDate = (iso: string) => <time dateTime={iso}>{dateFormat.format(new Date(iso))}</time>;

export function orderHref(orderId: string, panel?: { show: OrderPanel["show"]; line: string; index?: number }) {
  const search = new URLSearchParams({ id: orderId });
  if (panel) {
    search.set("show", panel.show);
    search.set("line", panel.line);
    if (panel.index !== undefined) search.set("index", String(panel.index));
  }
  return `/find-order?${search}`;
}

const delivered = (order: Order) => isPaidOrderStatus(order.status);
const warrantyEnded = (expiry: string | null) => !expiry || new Date(expiry).getTime() <= Date.now();

const STATUS_TEXT: Record<OrderRequest["status"], string> = {
  pending: "Waiting",
  completed: "Completed",
  rejected: "Rejected",
};

function StatusBadge({ status, answered }: { status: OrderRequest["status"]; answered?: boolean }) {
  const tone =
    status === "pending"
      ? "bg-amber-100 text-amber-900"
      : status === "completed"
        ? "bg-green-100 text-green-800"
        : "bg-red-100 text-red-800";
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${tone}`}>
      {answered && status === "completed" ? "Answered" : STATUS_TEXT[status]}
    </span>
  );
}

/** Under one credential: Replace, or why not (a request already waits, the warranty ended). */
function ReplaceControl({
  order,
  product,
  index,
  requests,
}: {
  order: Order;
  product: OrderProduct;
  index: number;
  requests: OrderRequestsData;
}) {
  if (requests.viewer !== "owner") return null;
  const history = requests.histories[product.productOption] ?? [];
  const waiting = history.some(
    (request) => request.kind === "replacement" && request.index === index && request.status === "pending",
  );
  if (waiting) {
    return (
      <p className="text-sm text-amber-900" data-testid="replacement-waiting">
        Replacement requested: we deliver it here as soon as it is ready.{" "}
        <Link
          to={orderHref(order._id, { show: "history", line: product.productOption })}
          preventScrollReset
          className={LINK}
        >
          History
        </Link>
      </p>
    );
  }
  if (warrantyEnded(product.expiry)) {
    return (
      <p className="text-sm text-slate-600">
        Warranty ended{product.expiry ? <> on {shownDate(product.expiry)}</> : null}: it can no longer be replaced.
      </p>
    );
  }
  return (
    <Link
      to={orderHref(order._id, { show: "replace", line: product.productOption, index })}
      preventScrollReset
      className="self-start rounded-md border border-slate-300 px-3 py-1.5 text-sm font-semibold hover:bg-slate-100"
    >
      Replace
    </Link>
  );
}

/** Why this visitor cannot ask for a replacement here, and what to do about it. */
function AccessNote({ order, requests }: { order: Order; requests: OrderRequestsData }) {
  if (requests.viewer === "other") {
    return <p className="text-sm text-slate-600">{requests.refusal}</p>;
  }
  const back = orderHref(order._id);
  return (
    <p className="text-sm text-slate-600" data-testid="sign-in-to-replace">
      <Link to={`/login?${new URLSearchParams({ redirectTo: back })}`} className={LINK}>
        Sign in
      </Link>{" "}
      with the account that placed this order to request a replacement or ask about it. Checked out as a guest? Your
      account uses your email address:{" "}
      <Link to="/forgot" className={LINK}>
        set its password
      </Link>{" "}
      first.
    </p>
  );
}

/** The answers to the line's other requests, so they are seen without opening anything. */
function OtherRequests({ requests }: { requests: OrderRequest[] }) {
  if (requests.length === 0) return null;
  return (
    <ul className="flex flex-col gap-2" aria-label="Your questions">
      {requests.map((request) => (
        <li key={request._id} className="rounded-lg border border-slate-200 p-3 text-sm">
          <p className="flex flex-wrap items-center gap-2">
            <StatusBadge status={request.status} answered />{" "}
            <span className="text-slate-600">{shownDate(request.createdAt)}</span>
          </p>
          <p className="mt-1 whitespace-pre-wrap break-words">{request.message}</p>
          {(request.answer ?? request.reason) && (
            <p className="mt-1 whitespace-pre-wrap break-words rounded-md bg-slate-100 p-2">
              <span className="font-semibold">Admin: </span>
              {request.answer ?? request.reason}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The links and answers a line shows below its credentials. */
function LineActions({
  order,
  product,
  requests,
}: {
  order: Order;
  product: OrderProduct;
  requests: OrderRequestsData;
}) {
  const line = product.productOption;
  const history = requests.histories[line] ?? [];
  const hasCredentials = delivered(order) && product.fullFillmode === "auto";
  return (
    <div className="flex flex-col gap-3">
      <nav aria-label={`Requests about ${product.title}`} className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        <Link to={orderHref(order._id, { show: "info", line })} preventScrollReset className={LINK}>
          Information
        </Link>
        {requests.viewer === "owner" && hasCredentials && (
          <Link to={orderHref(order._id, { show: "history", line })} preventScrollReset className={LINK}>
            Replacement history
          </Link>
        )}
        {requests.viewer === "owner" && (
          <Link to={orderHref(order._id, { show: "ask", line })} preventScrollReset className={LINK}>
            Ask a question
          </Link>
        )}
      </nav>
      {requests.viewer !== "owner" && hasCredentials && <AccessNote order={order} requests={requests} />}
      {!product.isReplacement && <OtherRequests requests={history.filter((request) => request.kind === "other")} />}
    </div>
  );
}

/** What the order page passes each product card: a control per credential and the line's actions. */
export function lineRequestProps(order: Order, product: OrderProduct, requests: OrderRequestsData) {
  return {
    credentialExtra: (index: number) => (
      <ReplaceControl order={order} product={product} index={index} requests={requests} />
    ),
    actions: <LineActions order={order} product={product} requests={requests} />,
  };
}

function MessageBox({
  meta,
  label,
  placeholder,
}: {
  meta: Parameters<typeof getTextareaProps>[0];
  label: string;
  placeholder: string;
}) {
  const { key, ...props } = getTextareaProps(meta);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={meta.id} className="text-sm font-semibold">
        {label}
      </label>
      <textarea
        key={key}
        {...props}
        rows={4}
        placeholder={placeholder}
        className="w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600"
      />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
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
  const refusal = useActionData<RequestRefusal>();
  const location = useLocation();
  const [form, fields] = useServerForm<z.input<typeof replacementFormSchema>>(FORM_CONSTRAINTS.replacementRequest, {
    id: "request-replacement",
    lastResult: refusal?.intent === "replace" ? refusal.result : undefined,
  });
  const humanCheck = refusal?.intent === "replace" ? refusal.humanCheck : requests.humanCheck;
  return (
    <Form
      method="post"
      action={location.pathname + location.search}
      preventScrollReset
      {...getFormProps(form)}
      className="flex flex-col gap-2"
    >
      <FormErrors form={form} />
      <input type="hidden" name="intent" value="replace" />
      <input type="hidden" name="index" value={index} />
      <LineFields product={product} />
      <MessageBox
        meta={fields.message}
        label="What is wrong with this account?"
        placeholder={REPLACEMENT_MESSAGE_PLACEHOLDER}
      />
      {/* A new challenge after a refusal remounts the check, so the spent token is not sent again. */}
      <HumanCheck key={humanCheck?.token ?? "none"} challenge={humanCheck} />
      <div>
        <SubmitButton pendingText="Sending…">Request Replacement</SubmitButton>
      </div>
    </Form>
  );
}

function OtherRequestForm({ product }: { product: OrderProduct }) {
  const refusal = useActionData<RequestRefusal>();
  const location = useLocation();
  const [form, fields] = useServerForm<z.input<typeof otherRequestFormSchema>>(FORM_CONSTRAINTS.otherRequest, {
    id: "other-request",
    lastResult: refusal?.intent === "ask" ? refusal.result : undefined,
  });
  return (
    <Form
      method="post"
      action={location.pathname + location.search}
      preventScrollReset
      {...getFormProps(form)}
      className="flex flex-col gap-2"
    >
      <FormErrors form={form} />
      <input type="hidden" name="intent" value="ask" />
      <LineFields product={product} />
      <MessageBox meta={fields.message} label="Your question" placeholder={OTHER_REQUEST_PLACEHOLDER} />
      <div>
        <SubmitButton pendingText="Sending…">Send Request</SubmitButton>
      </div>
    </Form>
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
