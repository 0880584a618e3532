import { z } from "zod";
import { emailField } from "../../contract/account";
import { keyField } from "../../contract/redeem-key";
import { HUMAN_CHECK_FIELD } from "~/lib/human-check-field";

/* The /redeem-key form, parsed the same way by the browser (conform) and by the route's action. */
export const redeemKeySchema = z.object({
  email: emailField,
  key: keyField,
  [HUMAN_CHECK_FIELD]: z.string().max(4_096).optional().default(""),
});
