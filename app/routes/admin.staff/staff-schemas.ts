import { z } from "zod";
import { emailField } from "../../../contract/account";
import { staffRoleField } from "../../../contract/staff";

/* The back office's form schemas, parsed the same way by the browser (conform) and by the route actions. */

export const staffRoleSchema = z.object({ email: emailField, role: staffRoleField });
