import { z } from "@hono/zod-openapi";
import {
  KEYS_REVOKE_MAX,
  KEY_STATES,
  keyCountField,
  keyHintField,
  keyQuantityField,
} from "../../../contract/admin-keys";
import {
  generatedBatchSchema,
  keyOptionsSchema,
  keyPageSchema,
  revokedKeysSchema,
} from "../../../contract/answers/admin-keys";
import { PUBLIC_ID_PATTERN } from "../../../contract/ids";
import { ok } from "../../http";
import { staffActor } from "../../middleware/staff";
import { answers, apiRouter, jsonBody } from "../../openapi";
import { generateKeyBatch, keyOptions, revokeKeyList } from "../../services/keys/admin";
import { KEYS_PAGE_SIZE, listKeys } from "../../services/keys/redeem-keys";
import { FAILURES, STAFF_FAILURES, adminRoute, pageField } from "./admin-route";

/*
 * /v1/admin/keys: redeem keys made, listed and revoked by staff (ADR 021, ADR 025). Area `keys`.
 * The plain codes are in the generate answer only; lists show each code's last 4 characters.
 */

const idField = (message: string) => z.string().regex(PUBLIC_ID_PATTERN, message);
const optionalIdQuery = (name: string, description: string) =>
  z
    .union([idField(`Invalid ${name}`), z.literal("")])
    .default("")
    .openapi({ param: { name, in: "query" }, description });

export const keyRoutes = apiRouter()
  .openapi(
    adminRoute("keys", {
      method: "get",
      path: "/keys",
      summary: `Redeem keys, newest first, ${KEYS_PAGE_SIZE} a page`,
      description:
        "Filters: `state`, `optionId`, `batchId`, `hint` (a code's last 4 characters). A key `expired` is unused past its expiry.",
      request: {
        query: z.object({
          page: pageField,
          state: z
            .union([z.enum(KEY_STATES), z.literal("")])
            .default("")
            .openapi({ param: { name: "state", in: "query" } }),
          optionId: optionalIdQuery("optionId", "keys of this option"),
          batchId: optionalIdQuery("batchId", "keys of this batch"),
          hint: keyHintField.openapi({ param: { name: "hint", in: "query" } }),
        }),
      },
      responses: answers(200, keyPageSchema, "a page of keys", FAILURES),
    }),
    async (c) => {
      const query = c.req.valid("query");
      return ok(
        c,
        await listKeys(c.get("db"), {
          page: query.page,
          state: query.state || undefined,
          optionId: query.optionId || undefined,
          batchId: query.batchId || undefined,
          hint: query.hint || undefined,
        }),
      );
    },
  )
  .openapi(
    adminRoute("keys", {
      method: "get",
      path: "/keys/options",
      summary: "Every option with its warranty durations: what a key can be made for",
      responses: answers(200, keyOptionsSchema, "the options", STAFF_FAILURES),
    }),
    async (c) => ok(c, { records: await keyOptions(c.get("db")) }),
  )
  .openapi(
    adminRoute("keys", {
      method: "post",
      path: "/keys/generate",
      summary: "Generate a batch of keys; the codes are in this answer only; audited",
      description:
        "Each key pays once for `quantity` of the option with that warranty duration. `batchId` (optional, a new id of the caller's) makes a repeated post answer 409 instead of a second batch.",
      request: {
        body: jsonBody(
          z.object({
            optionId: idField("Choose an option"),
            durationDays: z.number().int().min(1).max(100_000),
            quantity: keyQuantityField,
            count: keyCountField,
            expiresAt: z
              .string()
              .datetime({ offset: true, message: "The expiry is an ISO 8601 time" })
              .nullish()
              .openapi({ description: "ISO 8601; absent or null: the keys never expire" }),
            batchId: idField("Invalid batch id").optional(),
          }),
        ),
      },
      responses: answers(200, generatedBatchSchema, "the batch and its codes", {
        ...FAILURES,
        404: "no such option or warranty duration",
        409: "this batch id was already used",
      }),
    }),
    async (c) => {
      const body = c.req.valid("json");
      const batch = await generateKeyBatch(c.get("db"), staffActor(c), {
        ...body,
        expiresAt: body.expiresAt ? new Date(body.expiresAt) : null,
      });
      return ok(c, batch, `Generated ${batch.codes.length} key${batch.codes.length === 1 ? "" : "s"}`);
    },
  )
  .openapi(
    adminRoute("keys", {
      method: "post",
      path: "/keys/revoke",
      summary: "Revoke unused keys; audited",
      description: "Used keys stay used (their orders exist); revoked ones stay revoked. None revoked: 409.",
      request: {
        body: jsonBody(
          z.object({
            keyIds: z
              .array(idField("Invalid key id"))
              .min(1, "Choose at least one key")
              .max(KEYS_REVOKE_MAX, `At most ${KEYS_REVOKE_MAX} at a time`),
          }),
        ),
      },
      responses: answers(200, revokedKeysSchema, "how many keys were revoked", {
        ...FAILURES,
        409: "none of them could be revoked",
      }),
    }),
    async (c) => {
      const { revoked } = await revokeKeyList(c.get("db"), staffActor(c), c.req.valid("json").keyIds);
      return ok(c, { revoked }, `Revoked ${revoked} key${revoked === 1 ? "" : "s"}`);
    },
  );
