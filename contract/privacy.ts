import { z } from "zod";
import { SECRET_INPUT_MAX_LENGTH, required } from "./account";
import { reasonField } from "./admin-customers";

/*
 * A customer's own data (issue 29, ADR 044): the export they download, and the deletion of their account, by
 * themselves (with their password) or by staff at their request (with a reason). Shared by the API's route
 * declarations, the settings page and the back office.
 */

/** How a deleted customer's feedback, ticket messages and requests are shown to staff. */
export const DELETED_CUSTOMER = "Deleted customer";

export const PRIVACY_MESSAGES = {
  deleted: "Your account has been deleted. Your remaining balance was forfeited.",
  wrongPassword: "Your password is not correct",
  staffAccount: "A staff account cannot be deleted here. An owner can change its role to customer under Staff first.",
  ownAccount: "You cannot delete your own account from the back office. Use Settings, as a customer would.",
  alreadyDeleted: "This account has already been deleted",
} as const;

export const deleteAccountSchema = z.object({
  password: z
    .string(required("Please enter your password"))
    .min(1, "Please enter your password")
    .max(SECRET_INPUT_MAX_LENGTH, PRIVACY_MESSAGES.wrongPassword),
});

export const staffDeleteAccountSchema = z.object({ reason: reasonField });
