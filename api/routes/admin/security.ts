import { z } from "@hono/zod-openapi";
import {
  recoveryCodesSchema,
  twoFactorOffSchema,
  twoFactorPolicySchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from "../../../contract/answers/admin-security";
import { ok } from "../../http";
import { staffActor } from "../../middleware/staff";
import { NO_BODY, answers, apiRouter, jsonBody } from "../../openapi";
import {
  disableTwoFactor,
  enableTwoFactor,
  setTwoFactorRequired,
  startTwoFactorSetup,
  twoFactorStatus,
} from "../../services/accounts/two-factor";
import { FAILURES, adminRoute } from "./admin-route";

/*
 * /v1/admin/two-factor (ADR 027): every staff member turns their own two-factor sign-in on and off; owners
 * require it of all staff. The routes a member needs to turn it on stay open while it is required.
 */

const codeInput = z.object({
  code: z
    .string({ required_error: "Enter the code", invalid_type_error: "Enter the code" })
    .trim()
    .min(6, "Enter the 6-digit code from your app")
    .max(40, "Enter the 6-digit code from your app"),
});
export const securityRoutes = apiRouter()
  .openapi(
    adminRoute(
      "overview",
      {
        method: "get",
        path: "/two-factor",
        summary: "The signed-in staff member's two-factor sign-in, and whether owners require it",
        responses: answers(200, twoFactorStatusSchema, "the status", FAILURES),
      },
      { beforeTwoFactor: true },
    ),
    async (c) => ok(c, await twoFactorStatus(c.get("db"), staffActor(c).userId!)),
  )
  .openapi(
    adminRoute(
      "overview",
      {
        method: "post",
        path: "/two-factor/setup",
        summary: "Start the set-up: a new secret as an otpauth:// address and a QR code (SVG) to scan",
        request: { body: NO_BODY },
        responses: answers(200, twoFactorSetupSchema, "the secret to add to an authenticator app", {
          ...FAILURES,
          409: "two-factor sign-in is already on",
        }),
      },
      { beforeTwoFactor: true },
    ),
    async (c) => ok(c, await startTwoFactorSetup(c.get("db"), c.get("config"), staffActor(c)), "Scan the code"),
  )
  .openapi(
    adminRoute(
      "overview",
      {
        method: "post",
        path: "/two-factor/enable",
        summary:
          "Turn two-factor sign-in on with the first code; other sessions end; answers ten recovery codes, shown once; audited",
        request: { body: jsonBody(codeInput) },
        responses: answers(200, recoveryCodesSchema, "the recovery codes", {
          ...FAILURES,
          409: "already on",
        }),
      },
      { beforeTwoFactor: true },
    ),
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
    adminRoute("overview", {
      method: "post",
      path: "/two-factor/disable",
      summary: "Turn two-factor sign-in off with a code or a recovery code; audited",
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
    adminRoute("staff", {
      method: "put",
      path: "/two-factor/policy",
      summary:
        "Owners: require two-factor sign-in of every staff member (every other staff session ends), or stop; audited",
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
