import { ErrorList } from "~/components/account/form-fields";
import { type FieldMeta, getSelectProps, getTextareaProps } from "~/lib/server-form";

const FIELD_CLASS = "w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600";

export function MessageField({
  label,
  meta,
  rows = 4,
  placeholder,
}: {
  label: string;
  meta: FieldMeta;
  rows?: number;
  placeholder?: string;
}) {
  const { key, ...props } = getTextareaProps(meta);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={meta.id} className="text-sm font-semibold">
        {label}
      </label>
      <textarea key={key} {...props} rows={rows} placeholder={placeholder} className={FIELD_CLASS} />
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

export function OrderField({ meta, orders }: { meta: FieldMeta; orders: { id: string; label: string }[] }) {
  const { key, ...props } = getSelectProps(meta);
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={meta.id} className="text-sm font-semibold">
        Order
      </label>
      <select key={key} {...props} className={FIELD_CLASS}>
        <option value="">General question (no order)</option>
        {orders.map((order) => (
          <option key={order.id} value={order.id}>
            {order.label}
          </option>
        ))}
      </select>
      <ErrorList id={meta.errorId} errors={meta.errors} />
    </div>
  );
}

const timeFormat = new Intl.DateTimeFormat("en-US", {
  dateStyle: "medium",
  timeStyle: "short",
  timeZone: "UTC",
});

/** The same text on the server and in the browser (UTC), so hydration never disagrees. */
export function TicketTime({ iso }: { iso: string }) {
  return <time dateTime={iso}>{timeFormat.format(new Date(iso))} UTC</time>;
}

export const REPLY_PROMISE = "Our support team replies within 24 hours.";
