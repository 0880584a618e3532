import { PRIVACY_MESSAGES, deleteAccountSchema } from "../../contract/privacy";
import { deletedAccountSchema, retentionPolicySchema } from "../../contract/answers/privacy";
import { personalDataSchema } from "../../contract/answers/personal-data";
import { ok } from "../http";
import { requireUser } from "../middleware/auth";
import { UNAUTHORIZED, answers, apiRouter, declareRoute, jsonBody, sentenceFailure, signedInRoute } from "../openapi";
import { requestIp } from "../request-ip";
import { deleteOwnAccount } from "../services/privacy/account-deletion";
import { exportPersonalData } from "../services/privacy/data-export";

/*
 * /v1/user/export and /v1/user/delete (issue 29, ADR 044): the customer's own data as a download, and the deletion
 * of their account. Mounted under /v1/user beside the account routes.
 */

const PRIVACY = ["Accounts"];

/** The export's file name: the store's and the day's, never the person's. */
export function exportFilename(now = new Date()): string {
  return `store-data-${now.toISOString().slice(0, 10)}.json`;
}

export const privacyRoutes = apiRouter(sentenceFailure)
  .openapi(
    signedInRoute(PRIVACY, {
      method: "get",
      path: "/export",
      summary: "Everything the store holds about the signed-in customer, as a JSON download",
      description:
        "Answers with `Content-Disposition: attachment`: the profile, orders with their products and delivered " +
        "credentials, tickets with their messages, requests, feedback, the balance ledger, the customer's coupons and " +
        "spins, and the active sessions and known browsers. No token, hash or password hash is in it.",
      responses: answers(200, personalDataSchema, "the customer's data", UNAUTHORIZED),
    }),
    async (c) => {
      const user = requireUser(c);
      const data = await exportPersonalData(c.get("db"), user.id, { currentSessionId: user.sessionId });
      c.header("content-disposition", `attachment; filename="${exportFilename()}"`);
      return ok(c, data, "Your data");
    },
  )
  .openapi(
    signedInRoute(PRIVACY, {
      method: "post",
      path: "/delete",
      summary: "Delete the signed-in customer's account, with their password",
      description:
        "In one transaction: every session ends, the account keeps no name, address or password (the same address " +
        "may sign up again), orders stay for the store's books without personal data, feedback and ticket messages " +
        "stay shown as from 'Deleted customer', and a remaining balance is forfeited (a ledger entry says so). " +
        "Staff accounts cannot be deleted this way.",
      request: { body: jsonBody(deleteAccountSchema) },
      responses: answers(200, deletedAccountSchema, "deleted; the token no longer works", {
        400: "bad input, or the password is not correct (`errors.password`); nothing changed",
        ...UNAUTHORIZED,
        403: "a staff account: an owner must make it a customer first",
        429: "too many password attempts (with `Retry-After`)",
      }),
    }),
    async (c) => {
      const user = requireUser(c);
      const deleted = await deleteOwnAccount(
        { db: c.get("db"), config: c.get("config"), ip: requestIp(c) },
        user,
        c.req.valid("json").password,
      );
      return ok(c, deleted, PRIVACY_MESSAGES.deleted);
    },
  );

/** /v1/privacy/retention: how long the store keeps what it no longer needs, as configured, for the privacy policy. */
export const retentionPolicyRoutes = apiRouter().openapi(
  declareRoute(["Content"], {
    method: "get",
    path: "/retention",
    summary: "How many days personal data that is no longer needed is kept (RETENTION_DAYS)",
    description:
      "Unpaid orders, accounts made at a guest checkout that never paid, guest tickets and client addresses are " +
      "removed (addresses cut to their network in the audit log) once they are older than this.",
    responses: answers(200, retentionPolicySchema, "the retention window"),
  }),
  (c) => ok(c, { retentionDays: c.get("config").retentionDays }),
);
