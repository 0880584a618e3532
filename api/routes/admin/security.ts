import { createRoute, z } from "@hono/zod-openapi";
import {
  recoveryCodesSchema,
  twoFactorOffSchema,
  twoFactorPolicySchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from "../../../contract/answers/admin-security";
import { ok } from "../../http";
import { staffActor, staffRoute } from "../../middleware/staff";
import { BAD_INPUT, UNAUTHORIZED, answers, apiRouter, jsonBody } from "../../openapi";
import {
  disableTwoFactor,
  enableTwoFactor,
  setTwoFactorRequired,
  startTwoFactorSetup,
  twoFactorStatus,
} from "../../services/two-factor";
import { STAFF_ONLY } from "./staff";

/*
 * /v1/admin/two-factor (ADR 027): every staff member turns their own two-factor sign-in on and off; owners
 * require it of all staff. The routes a member needs to turn it on stay open while it is required.
 */

const ADMIN = ["Back office"];
const FAILURES = { ...BAD_INPUT, ...UNAUTHORIZED, ...STAFF_ONLY };
const codeInput = z.object({
  code: z
    .string({ required_error: "Enter the code", invalid_type_error: "Enter the code" })
    .trim()
    .min(6, "Enter the 6-digit code from your app")
    .max(40, "Enter the 6-digit code from your app"),
});
export const securityRoutes = apiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/two-factor",
      tags: ADMIN,
      summary: "The signed-in staff member's two-factor sign-in, and whether owners require it",
      ...staffRoute("overview", { beforeTwoFactor: true }),
      responses: answers(200, twoFactorStatusSchema, "the status", FAILURES),
    }),
    async (c) => ok(c, await twoFactorStatus(c.get("db"), staffActor(c).userId!)),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/two-factor/setup",
      tags: ADMIN,
      summary: "Start the set-up: a new secret as an otpauth:// address and a QR code (SVG) to scan",
      ...staffRoute("overview", { beforeTwoFactor: true }),
      responses: answers(200, twoFactorSetupSchema, "the secret to add to an authenticator app", {
        ...FAILURES,
        409: "two-factor sign-in is already on",
      }),
    }),
    async (c) => ok(c, await startTwoFactorSetup(c.get("db"), c.get("config"), staffActor(c)), "Scan the code"),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/two-factor/enable",
      tags: ADMIN,
      summary:
        "Turn two-factor sign-in on with the first code; other sessions end; answers ten recovery codes, shown once; audited",
      ...staffRoute("overview", { beforeTwoFactor: true }),
      request: { body: jsonBody(codeInput) },
      responses: answers(200, recoveryCodesSchema, "the recovery codes", {
        ...FAILURES,
        409: "already on",
      }),
    }),
    async (c) => {
      const result = await enableTwoFactor(c.get("db"), c.get("config"), staffActor(c), c.req.valid("json").code);
      return ok(
        c,
        result,
        "Two-factor sign-in is on and your other sessions are signed out. Keep your recovery codes somewhere safe.",
      );
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/two-factor/disable",
      tags: ADMIN,
      summary: "Turn two-factor sign-in off with a code or a recovery code; audited",
      ...staffRoute("overview"),
      request: { body: jsonBody(codeInput) },
      responses: answers(200, twoFactorOffSchema, "turned off", {
        ...FAILURES,
        409: "it is not on, or owners require it for all staff",
      }),
    }),
    async (c) => {
      await disableTwoFactor(c.get("db"), c.get("config"), staffActor(c), c.req.valid("json").code);
      return ok(c, {}, "Two-factor sign-in is off");
    },
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/two-factor/policy",
      tags: ADMIN,
      summary:
        "Owners: require two-factor sign-in of every staff member (every other staff session ends), or stop; audited",
      ...staffRoute("staff"),
      request: { body: jsonBody(z.object({ required: z.boolean({ invalid_type_error: "Choose on or off" }) })) },
      responses: answers(200, twoFactorPolicySchema, "the policy", {
        ...FAILURES,
        409: "the owner's own two-factor sign-in is not on",
      }),
    }),
    async (c) => {
      const { required } = c.req.valid("json");
      await setTwoFactorRequired(c.get("db"), staffActor(c), required);
      return ok(
        c,
        { required },
        required
          ? "Two-factor sign-in is now required of all staff; every other staff session is signed out"
          : "Two-factor sign-in is optional again",
      );
    },
  );
