import { z } from "zod";

/* The signed-in staff member's two-factor sign-in (/v1/admin/two-factor, ADR 027). */

/** Whether it is on, and whether owners require it (GET /v1/admin/two-factor). */
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  pending: z.boolean().describe("a set-up was started and waits for its first code"),
  recoveryCodesLeft: z.number().int(),
  requiredForAll: z.boolean(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;

/** A new secret to add to an authenticator app (POST /v1/admin/two-factor/setup). */
export const twoFactorSetupSchema = z.object({
  secret: z.string(),
  uri: z.string().describe("an otpauth:// address"),
  qrSvg: z.string().describe("the address as a QR code, SVG"),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;

/** Ten recovery codes, shown once (POST /v1/admin/two-factor/enable). */
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

/** Two-factor sign-in turned off (POST /v1/admin/two-factor/disable). */
export const twoFactorOffSchema = z.object({});

/** Whether owners require two-factor sign-in of all staff (PUT /v1/admin/two-factor/policy). */
export const twoFactorPolicySchema = z.object({ required: z.boolean() });
