import { staffCustomerDataSchema } from "../../../contract/answers/personal-data";
import { deletedAccountSchema } from "../../../contract/answers/privacy";
import { staffDeleteAccountSchema } from "../../../contract/privacy";
import { depsOf } from "../../context";
import { ok } from "../../http";
import { staffActor } from "../../middleware/staff";
import { BAD_INPUT, UNAUTHORIZED, answers, apiRouter, jsonBody, pathParams } from "../../openapi";
import { CUSTOMER_MESSAGES } from "../../services/customers/admin";
import { deleteCustomerForStaff } from "../../services/privacy/account-deletion";
import { exportCustomerForStaff } from "../../services/privacy/data-export";
import { exportFilename } from "../privacy";
import { FAILURES, adminRoute, idOf } from "./admin-route";

/*
 * /v1/admin/customers/{id}/export and /delete (issue 29, ADR 044): staff answering a customer's request for their
 * data or for deletion. Owners and managers (customersWrite); each is audited by the account's id, without its data.
 * The export holds no credential's username or password (issue 37, ADR 054).
 */

const customerPath = { params: pathParams("customerId") };

export const adminPrivacyRoutes = apiRouter()
  .openapi(
    adminRoute("customersWrite", {
      method: "get",
      path: "/customers/{customerId}/export",
      summary:
        "A customer's data as the customer's own export without credentials' secrets, as a JSON download; audited",
      description:
        "Delivered credentials appear with their dates only, never a username or password (ADR 054): staff read " +
        "an order's credentials with `POST /v1/admin/orders/{orderId}/credentials`, audited per order.",
      request: customerPath,
      responses: answers(200, staffCustomerDataSchema, "the customer's data without credentials' secrets", {
        ...FAILURES,
        404: "no customer has this id, or the account was deleted",
      }),
    }),
    async (c) => {
      const userId = idOf(c.req.valid("param").customerId, CUSTOMER_MESSAGES.notFound);
      const data = await exportCustomerForStaff(c.get("db"), staffActor(c), userId);
      c.header("content-disposition", `attachment; filename="${exportFilename()}"`);
      return ok(c, data, "The customer's data");
    },
  )
  .openapi(
    adminRoute("customersWrite", {
      method: "post",
      path: "/customers/{customerId}/delete",
      summary: "Delete a customer's account at their request, with a reason; audited",
      description:
        "The same deletion as the customer's own (`/v1/user/delete`). Nobody deletes their own account here, and a " +
        "staff account is never deleted this way: an owner makes it a customer first.",
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
      const userId = idOf(c.req.valid("param").customerId, CUSTOMER_MESSAGES.notFound);
      const deleted = await deleteCustomerForStaff(depsOf(c), staffActor(c), {
        userId,
        reason: c.req.valid("json").reason,
      });
      return ok(c, deleted, "The account is deleted; its remaining balance was forfeited");
    },
  );
