import { z } from "zod";
import { REQUEST_STATUSES } from "../browser/request";
import { isoDateSchema, publicIdSchema } from "./common";

/* A warranty replacement or other request on an order line, as its customer reads it (/v1/request/*). */

export const orderRequestSchema = z.object({
  _id: publicIdSchema,
  kind: z.enum(["replacement", "other"]),
  index: z.number().int().nullable().describe("the credential a replacement is for; null for other requests"),
  status: z.enum(REQUEST_STATUSES),
  createdAt: isoDateSchema,
  resolvedAt: isoDateSchema.nullable(),
  message: z.string(),
  creds: z.array(z.string()).describe("a completed replacement's new credential, `username:password`"),
  reason: z.string().nullable().describe("why it was rejected"),
  answer: z.string().nullable().describe("staff's answer to a completed other request"),
});
export type OrderRequest = z.infer<typeof orderRequestSchema>;
export const orderRequestListSchema = z.array(orderRequestSchema);
