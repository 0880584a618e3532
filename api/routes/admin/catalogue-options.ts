import { durationInputSchema, optionInputSchema } from "../../../contract/admin-catalogue";
import {
  deletedDurationSchema,
  savedDurationSchema,
  savedOptionSchema,
} from "../../../contract/answers/admin-catalogue";
import { createdOnce } from "../../idempotent-answer";
import { ok } from "../../http";
import { staffActor } from "../../middleware/staff";
import { answers, apiRouter, jsonBody, pathParams, ONCE_FAILURES, idempotencyKeyHeader } from "../../openapi";
import { ADMIN_CATALOGUE_MESSAGES } from "../../services/catalogue/admin";
import {
  createDuration,
  createOption,
  deleteDuration,
  updateDuration,
  updateOption,
} from "../../services/catalogue/admin-options";
import { FAILURES, STAFF_FAILURES, adminRoute, catalogueChanged, idOf } from "./admin-route";

/*
 * /v1/admin/catalogue's options and their warranty durations (ADR 024), beside catalogue.ts: audited, and
 * each change forgets this process's catalogue snapshots.
 */

export const catalogueOptionRoutes = apiRouter()
  // ---------------------------------------------------------------- options
  .openapi(
    adminRoute("catalogue", {
      method: "post",
      path: "/catalogue/products/{productId}/options",
      summary: "Add an option to a product; audited",
      request: { headers: idempotencyKeyHeader, params: pathParams("productId"), body: jsonBody(optionInputSchema) },
      responses: answers(201, savedOptionSchema, "the new option", {
        ...FAILURES,
        ...ONCE_FAILURES,
        404: "no product has this id",
      }),
    }),
    async (c) => {
      const productId = idOf(c.req.valid("param").productId, ADMIN_CATALOGUE_MESSAGES.productNotFound);
      const input = c.req.valid("json");
      return createdOnce(c, input, async () => {
        const option = await createOption(c.get("db"), staffActor(c), productId, input);
        catalogueChanged(c);
        return { payload: option, message: `Option ${option.title} added` };
      });
    },
  )
  .openapi(
    adminRoute("catalogue", {
      method: "put",
      path: "/catalogue/options/{optionId}",
      summary: "Save an option; audited",
      description:
        "Seats change only while the option has no stock rows (409 otherwise). A new low-stock threshold " +
        "is compared with the free seats at once.",
      request: { params: pathParams("optionId"), body: jsonBody(optionInputSchema) },
      responses: answers(200, savedOptionSchema, "the option", {
        ...FAILURES,
        404: "no option has this id",
        409: "seats changed while the option has stock (`errors.seats`)",
      }),
    }),
    async (c) => {
      const optionId = idOf(c.req.valid("param").optionId, ADMIN_CATALOGUE_MESSAGES.optionNotFound);
      const option = await updateOption(c.get("db"), staffActor(c), c.get("config"), optionId, c.req.valid("json"));
      catalogueChanged(c);
      return ok(c, option, `Option ${option.title} saved`);
    },
  )
  // ---------------------------------------------------------------- warranty durations
  .openapi(
    adminRoute("catalogue", {
      method: "post",
      path: "/catalogue/options/{optionId}/durations",
      summary: "Add a warranty duration with its price to an option; audited",
      request: { headers: idempotencyKeyHeader, params: pathParams("optionId"), body: jsonBody(durationInputSchema) },
      responses: answers(201, savedDurationSchema, "the new duration", {
        ...FAILURES,
        ...ONCE_FAILURES,
        404: "no option has this id",
        409: "the option already has a duration of these days (`errors.days`), or the same Idempotency-Key is still in progress",
      }),
    }),
    async (c) => {
      const optionId = idOf(c.req.valid("param").optionId, ADMIN_CATALOGUE_MESSAGES.optionNotFound);
      const input = c.req.valid("json");
      return createdOnce(c, input, async () => {
        const duration = await createDuration(c.get("db"), staffActor(c), optionId, input);
        catalogueChanged(c);
        return { payload: duration, message: `Warranty ${duration.title} added` };
      });
    },
  )
  .openapi(
    adminRoute("catalogue", {
      method: "put",
      path: "/catalogue/durations/{durationId}",
      summary: "Save a warranty duration; audited",
      request: { params: pathParams("durationId"), body: jsonBody(durationInputSchema) },
      responses: answers(200, savedDurationSchema, "the duration", {
        ...FAILURES,
        404: "no duration has this id",
        409: "the option already has a duration of these days (`errors.days`)",
      }),
    }),
    async (c) => {
      const durationId = idOf(c.req.valid("param").durationId, ADMIN_CATALOGUE_MESSAGES.durationNotFound);
      const duration = await updateDuration(c.get("db"), staffActor(c), durationId, c.req.valid("json"));
      catalogueChanged(c);
      return ok(c, duration, `Warranty ${duration.title} saved`);
    },
  )
  .openapi(
    adminRoute("catalogue", {
      method: "delete",
      path: "/catalogue/durations/{durationId}",
      summary: "Delete a warranty duration (orders keep theirs); audited",
      request: { params: pathParams("durationId") },
      responses: answers(200, deletedDurationSchema, "the deleted duration", {
        ...STAFF_FAILURES,
        404: "no duration has this id",
      }),
    }),
    async (c) => {
      const durationId = idOf(c.req.valid("param").durationId, ADMIN_CATALOGUE_MESSAGES.durationNotFound);
      const deleted = await deleteDuration(c.get("db"), staffActor(c), durationId);
      catalogueChanged(c);
      return ok(c, deleted, `Warranty ${deleted.title} deleted`);
    },
  );
