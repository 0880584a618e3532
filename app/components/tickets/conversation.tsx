import { STAFF_AUTHOR } from "../../../contract/browser/ticket";
import { TicketTime } from "./ticket-fields";

/* A support conversation as the customer (tickets) and the guest (contact link) read it. */

type Ticket = {
  status: string;
  createdAt: string;
  orderId?: string | null;
  messages: { _id: string; username: string; timestamp: string; message: string }[];
};

/** Open or closed, when it was opened, and the order it is about. */
export function TicketSummary({ ticket, className }: { ticket: Ticket; className: string }) {
  return (
    <p className={className}>
      {ticket.status === "open" ? "Open" : "Closed"} · opened <TicketTime iso={ticket.createdAt} />
      {ticket.orderId ? ` · order ${ticket.orderId.slice(0, 8)}` : " · general question"}
    </p>
  );
}

/** The customer's messages on the right, the staff's on the left. */
export function MessageList({ messages, className }: { messages: Ticket["messages"]; className: string }) {
  return (
    <ol aria-label="Messages" className={className}>
      {messages.map((message) => {
        const fromStaff = message.username === STAFF_AUTHOR;
        return (
          <li
            key={message._id}
            className={`max-w-[85%] rounded-xl p-3 ${fromStaff ? "self-start bg-slate-100" : "self-end bg-brand-50"}`}
          >
            <p className="text-xs text-slate-600">
              <span className="font-semibold text-ink">{message.username}</span> ·{" "}
              <TicketTime iso={message.timestamp} />
            </p>
            {/* Text, never markup: React escapes it. */}
            <p className="break-words whitespace-pre-wrap">{message.message}</p>
          </li>
        );
      })}
    </ol>
  );
}
