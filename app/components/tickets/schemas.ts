import { z } from "zod";
import { ticketMessageField, ticketOrderField, ticketSubjectField } from "../../../contract/ticket";

/* The ticket forms' schemas, parsed the same way by the browser (conform) and by the route actions. */

export const openTicketSchema = z.object({
  orderId: ticketOrderField,
  subject: ticketSubjectField,
  message: ticketMessageField,
});

export const ticketMessageSchema = z.object({ message: ticketMessageField });
