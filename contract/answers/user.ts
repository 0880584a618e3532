import { z } from "zod";
import { isoDateSchema, usdSchema } from "./common";

/* The accounts' answers (/v1/user/*): sessions, the two-factor step, the access check and the profile. */

/** A new session (sign-up, reset, password change). */
export const sessionSchema = z.object({
  token: z.string().min(1).describe("the bearer token of a new 30-day session"),
});

/** A completed sign-in: the session, and the browser's device token (ADR 015). */
export const signedInSchema = sessionSchema.extend({
  deviceToken: z.string().min(1).describe("send it back as `deviceToken` at the next sign-in from this browser"),
});

/** A staff account with two-factor sign-in on answers this instead of a session (ADR 027). */
export const twoFactorStepSchema = z.object({
  twoFactorRequired: z.literal(true),
  challenge: z.string().min(1).describe("send it with the code to /v1/user/login/two-factor (5 minutes)"),
});

/** POST /v1/user/login: signed in, or the code step. */
export const loginAnswerSchema = z.union([signedInSchema, twoFactorStepSchema]);

/** GET /v1/user/access: who the token is signed in as. */
export const accessSchema = z.object({ email: z.string(), username: z.string() });
export type AccountAccess = z.infer<typeof accessSchema>;

/** GET /v1/user/profile: the account and its dashboard's figures. */
export const profileSchema = z.object({
  username: z.string(),
  email: z.string(),
  balance: usdSchema,
  orders: z.number().int().describe("orders except expired or cancelled ones"),
  completedOrders: z.number().int().describe("orders with status completed"),
  spent: usdSchema.describe("what the paid orders cost: processing, completed and partly completed"),
  tickets: z.number().int().describe("all the customer's tickets, open or closed"),
  openTickets: z.number().int().describe("tickets with status open"),
  created: isoDateSchema,
});
export type AccountProfile = z.infer<typeof profileSchema>;
