import { createRoute } from "@hono/zod-openapi";
import { PUBLIC_ID_PATTERN } from "../../../contract/ids";
import { personalDataSchema } from "../../../contract/answers/personal-data";
import { deletedAccountSchema } from "../../../contract/answers/privacy";
import { staffDeleteAccountSchema } from "../../../contract/privacy";
import { notFound } from "../../errors";
import { ok } from "../../http";
import { staffActor, staffRoute } from "../../middleware/staff";
import { BAD_INPUT, UNAUTHORIZED, answers, apiRouter, jsonBody, pathParams } from "../../openapi";
import { CUSTOMER_MESSAGES } from "../../services/admin-customers";
import { deleteCustomerForStaff, exportCustomerForStaff } from "../../services/privacy";
import { exportFilename } from "../privacy";
import { STAFF_ONLY } from "./staff";

/*
 * /v1/admin/customers/{id}/export and /delete (issue 29, ADR 044): staff answering a customer's request for their
 * data or for deletion. Owners and managers (customersWrite); each is audited by the account's id, without its data.
 */

const ADMIN = ["Back office"];
const customerPath = { params: pathParams("customerId") };

function customerIdOf(id: string): string {
  if (!PUBLIC_ID_PATTERN.test(id)) throw notFound(CUSTOMER_MESSAGES.notFound);
  return id;
}

export const adminPrivacyRoutes = apiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/customers/{customerId}/export",
      tags: ADMIN,
      summary: "A customer's data as the customer's own export, as a JSON download; audited",
      ...staffRoute("customersWrite"),
      request: customerPath,
      responses: answers(200, personalDataSchema, "the customer's data", {
        ...BAD_INPUT,
        ...UNAUTHORIZED,
        ...STAFF_ONLY,
        404: "no customer has this id, or the account was deleted",
      }),
    }),
    async (c) => {
      const userId = customerIdOf(c.req.valid("param").customerId);
      const data = await exportCustomerForStaff(c.get("db"), staffActor(c), userId);
      c.header("content-disposition", `attachment; filename="${exportFilename()}"`);
      return ok(c, data, "The customer's data");
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/customers/{customerId}/delete",
      tags: ADMIN,
      summary: "Delete a customer's account at their request, with a reason; audited",
      description:
        "The same deletion as the customer's own (`/v1/user/delete`). Nobody deletes their own account here, and a " +
        "staff account is never deleted this way: an owner makes it a customer first.",
      ...staffRoute("customersWrite"),
      request: { ...customerPath, body: jsonBody(staffDeleteAccountSchema) },
      responses: answers(200, deletedAccountSchema, "deleted", {
        ...BAD_INPUT,
        ...UNAUTHORIZED,
        403: "the role does not reach this area, or the account is the caller's own or a staff account",
        404: "no customer has this id",
        409: "the account was already deleted",
      }),
    }),
    async (c) => {
      const userId = customerIdOf(c.req.valid("param").customerId);
      const deleted = await deleteCustomerForStaff({ db: c.get("db"), config: c.get("config") }, staffActor(c), {
        userId,
        reason: c.req.valid("json").reason,
      });
      return ok(c, deleted, "The account is deleted; its remaining balance was forfeited");
    },
  );
